/**
 * The verifications module's public surface for other modules: a customer's first verification is
 * created with the customer, in the same transaction; a verification is read, or locked in the caller's
 * transaction before a submission moves it.
 */
export {
  findOwnedVerification,
  insertVerification,
  lockVerification,
  type VerificationRow,
  verificationReader,
} from './repo.ts';
