import type { RequestOptions } from '../transport.js';
import type {
  Balances,
  Document,
  DocumentFile,
  Event,
  ListDocumentsParams,
  ListEventsParams,
  UploadDocumentParams,
} from '../types.js';
import { Resource, segment } from './base.js';

/** The environment's events, newest first, with the bodies webhooks carry: to recover missed deliveries. */
export class Events extends Resource {
  /** GET /events: every event of the environment (of one `type` when given). */
  list(params?: ListEventsParams, options?: RequestOptions) {
    return this.listPages<Event>('/events', params, options);
  }

  /** GET /events/{id}: one event, as its webhooks carried it. */
  retrieve(id: string, options?: RequestOptions): Promise<Event> {
    return this.getJson(`/events/${segment(id)}`, undefined, options);
  }
}

export class CustomerBalances extends Resource {
  /** GET /customers/{id}/balances: the total per currency over every wallet of the customer. */
  retrieve(customerId: string, options?: RequestOptions): Promise<Balances> {
    return this.getJson(`/customers/${segment(customerId)}/balances`, undefined, options);
  }
}

export class Documents extends Resource {
  /**
   * POST /customers/{id}/documents (multipart): uploads a file (PDF, JPEG or PNG, recognised from its
   * content) with the form's other fields; its id is, for instance, a limit request's supportingDocumentId.
   */
  upload(
    customerId: string,
    file: DocumentFile,
    params: UploadDocumentParams = {} as UploadDocumentParams,
    options?: RequestOptions,
  ): Promise<Document> {
    const form = new FormData();
    for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
      if (value !== undefined && value !== null) form.append(name, String(value));
    }
    const content = file.content instanceof Blob ? file.content : new Blob([file.content as ArrayBuffer]);
    const blob = file.contentType ? new Blob([content], { type: file.contentType }) : content;
    form.append('file', blob, file.fileName);
    return this.postForm(`/customers/${segment(customerId)}/documents`, form, options);
  }

  retrieve(customerId: string, id: string, options?: RequestOptions): Promise<Document> {
    return this.getJson(`/customers/${segment(customerId)}/documents/${segment(id)}`, undefined, options);
  }

  list(customerId: string, params?: ListDocumentsParams, options?: RequestOptions) {
    return this.listPages<Document>(`/customers/${segment(customerId)}/documents`, params, options);
  }
}
