export { Ponte } from './client.js';
export {
  PonteApiError,
  PonteConnectionError,
  PonteError,
  PonteWebhookVerificationError,
  type ProblemBody,
} from './errors.js';
export type { components, operations, paths, webhooks } from './generated/openapi.js';
export { Page, PagePromise, type Pagination } from './pagination.js';
export type { ClientOptions, RequestOptions } from './transport.js';
export type * from './types.js';
export type { VerifyOptions, WebhookHeaders } from './webhooks.js';
