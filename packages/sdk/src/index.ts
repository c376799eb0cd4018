export { Ponte } from './client.js';
export {
  PonteApiError,
  PonteConnectionError,
  PonteError,
  PonteWebhookVerificationError,
  type ProblemBody,
  type ProblemFields,
  type ProblemOf,
} from './errors.js';
export type { components, operations, paths, webhooks } from './generated/openapi.js';
export { Page, PagePromise, type Pagination } from './pagination.js';
export type { Account, CreateAccountParams, ListAccountsParams } from './resources/accounts.js';
export type {
  AssociatedParty,
  CreateAssociatedPartyParams,
  ListAssociatedPartiesParams,
} from './resources/associated-parties.js';
export type { TermsLink, TermsLinkParams } from './resources/customers.js';
export type { Document, UploadDocumentParams } from './resources/documents.js';
export type { ClientOptions, RequestOptions } from './transport.js';
export type * from './types.js';
export type { VerifyOptions, WebhookHeaders } from './webhooks.js';
