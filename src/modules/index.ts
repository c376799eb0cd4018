/**
 * The modules each surface serves. A module contributes named schemas (shared through `$ref` and
 * published as OpenAPI components) and a route plugin.
 */
import type { TSchema } from 'typebox';
import { Problem } from '../http/schemas.ts';
import { associatedPartyRoutes } from './associated-parties/routes.ts';
import { AssociatedPartySchema } from './associated-parties/schema.ts';
import { backupOperatorRoutes } from './backups/routes.ts';
import { rejectHolderAfterSanctionsMatch } from './bank-accounts/holder-review.ts';
import { bankAccountRoutes } from './bank-accounts/routes.ts';
import { BankAccountSchema } from './bank-accounts/schema.ts';
import { complianceOperatorRoutes } from './compliance/routes.ts';
import { customerRoutes } from './customers/routes.ts';
import { CustomerSchema } from './customers/schema.ts';
import { documentRoutes } from './documents/routes.ts';
import { DocumentSchema } from './documents/schema.ts';
import { eventRoutes } from './events/routes.ts';
import { EventSchema } from './events/schema.ts';
import { hostedVerificationRoutes } from './hosted-verification/routes.ts';
import { sandboxVerificationRoutes } from './hosted-verification/sandbox-routes.ts';
import { limitRequestRoutes } from './limit-requests/routes.ts';
import { LimitRequestSchema } from './limit-requests/schema.ts';
import { decideHeldPayouts } from './off-ramp/payout-holds.ts';
import { offRampRoutes } from './off-ramp/routes.ts';
import { sandboxReturnRoutes } from './off-ramp/sandbox-routes.ts';
import { onRampRoutes } from './on-ramp/routes.ts';
import { sandboxDepositRoutes, sandboxExpiryRoutes } from './on-ramp/sandbox-routes.ts';
import { operatorAccountRoutes } from './operators/accounts-routes.ts';
import { partnerFeeOperatorRoutes } from './partner-fees/routes.ts';
import { pixWebhookRoutes } from './pix/webhook-routes.ts';
import type { OperatorPlugin, PublicPlugin } from './plugins.ts';
import { exchangeRateRoutes, rateOperatorRoutes } from './pricing/routes.ts';
import { ExchangeRateSchema } from './pricing/schema.ts';
import { projectOperatorRoutes } from './projects/routes.ts';
import { onHoldDecided, onScreeningDecision } from './screening/review.ts';
import { screeningOperatorRoutes } from './screening/routes.ts';
import { CustomerScreeningSchema } from './screening/schema.ts';
import { termsLinkRoutes, termsPageRoutes } from './terms/routes.ts';
import { transactionRoutes } from './transactions/routes.ts';
import { TransactionSchema } from './transactions/schema.ts';
import { verificationRoutes } from './verification-review/routes.ts';
import { VerificationSchema } from './verifications/schema.ts';
import { decideHeldDeposits } from './wallets/deposits.ts';
import { refuseHeldTransaction, releaseHeldTransaction } from './wallets/held.ts';
import { balanceRoutes } from './wallets/holdings-routes.ts';
import { walletRoutes } from './wallets/routes.ts';
import { decideHeldSends } from './wallets/send-holds.ts';
import { travelRuleRoutes } from './wallets/travel-rule-routes.ts';
import { webUserOperatorRoutes } from './web-users/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { WebhookDeliverySchema, WebhookEndpointSchema } from './webhooks/schema.ts';

export const sharedSchemas: TSchema[] = [
  Problem,
  VerificationSchema,
  CustomerSchema,
  LimitRequestSchema,
  BankAccountSchema,
  DocumentSchema,
  WebhookEndpointSchema,
  WebhookDeliverySchema,
  TransactionSchema,
  ExchangeRateSchema,
  CustomerScreeningSchema,
  AssociatedPartySchema,
  EventSchema,
];

/** Routes that need an API key of the listener's environment. */
export const partnerRoutes: PublicPlugin[] = [
  customerRoutes,
  verificationRoutes,
  limitRequestRoutes,
  bankAccountRoutes,
  documentRoutes,
  sandboxVerificationRoutes,
  webhookRoutes,
  onRampRoutes,
  offRampRoutes,
  transactionRoutes,
  sandboxDepositRoutes,
  sandboxReturnRoutes,
  sandboxExpiryRoutes,
  balanceRoutes,
  walletRoutes,
  exchangeRateRoutes,
  travelRuleRoutes,
  associatedPartyRoutes,
  termsLinkRoutes,
  eventRoutes,
];

/** Routes on the public listeners that carry their own authentication (or none): pages, provider callbacks. */
export const openPublicRoutes: PublicPlugin[] = [pixWebhookRoutes, hostedVerificationRoutes, termsPageRoutes];

/** Routes on the operator listener, behind an operator token. */
export const operatorRoutes: OperatorPlugin[] = [
  projectOperatorRoutes,
  rateOperatorRoutes,
  operatorAccountRoutes,
  complianceOperatorRoutes,
  partnerFeeOperatorRoutes,
  webUserOperatorRoutes,
  screeningOperatorRoutes,
  backupOperatorRoutes,
];

/** What a screening decision does to the subjects other modules own (screening imports none of them). */
onScreeningDecision(['BANK_ACCOUNT_HOLDER'], {
  confirmed: (tx, _deps, id, at) => rejectHolderAfterSanctionsMatch(tx, id, at),
});
onScreeningDecision(['TRANSFER', 'DEPOSIT'], {
  cleared: (tx, { chains }, id, at) => releaseHeldTransaction(tx, chains, id, at),
  confirmed: (tx, { chains }, id, at) => refuseHeldTransaction(tx, chains, id, at),
});
/** What a decided hold on a person does to the money it stopped on its way out. */
onHoldDecided((tx, _deps, decided, at) => decideHeldPayouts(tx, decided, at));
onHoldDecided((tx, { chains }, decided, at) => decideHeldDeposits(tx, chains, decided, at));
onHoldDecided((tx, { chains }, decided, at) => decideHeldSends(tx, chains, decided, at));
