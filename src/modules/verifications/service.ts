/**
 * The verifications module's public surface for other modules: a customer's first verification is
 * created with the customer, in the same transaction.
 */
export { insertVerification, type VerificationRow } from './repo.ts';
