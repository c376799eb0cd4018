import type { components } from '../generated/openapi.js';
import type { RequestOptions } from '../transport.js';
import type { ListDocumentsParams } from '../types.js';
import { Resource, segment } from './base.js';

export type Document = components['schemas']['Document'];

export type UploadDocumentParams = {
  /** The file's bytes: PDF, JPEG or PNG (recognised from the content), at most 3 MB. */
  file: Blob | Uint8Array;
  /** The name the file is stored under (default `document`). */
  fileName?: string;
  type?: Document['type'];
  side?: 'FRONT' | 'BACK';
  /** A document of one of the customer's associated parties. */
  associatedPartyId?: string;
};

/** `ponte.documents`: files for a limit request, or for a customer's (or party's) verification. */
export class Documents extends Resource {
  /** POST /customers/{id}/documents (multipart/form-data). */
  upload(customerId: string, params: UploadDocumentParams, options?: RequestOptions): Promise<Document> {
    const form = new FormData();
    for (const field of ['type', 'side', 'associatedPartyId'] as const) {
      const value = params[field];
      if (value !== undefined) form.append(field, value);
    }
    const file = params.file instanceof Blob ? params.file : new Blob([new Uint8Array(params.file)]);
    form.append('file', file, params.fileName ?? 'document');
    return this.transport.request<Document>({
      method: 'POST',
      path: `/customers/${segment(customerId)}/documents`,
      body: form,
      options,
    });
  }

  /** GET /customers/{id}/documents/{documentId}. */
  retrieve(customerId: string, id: string, options?: RequestOptions): Promise<Document> {
    return this.getJson(`/customers/${segment(customerId)}/documents/${segment(id)}`, undefined, options);
  }

  /** GET /customers/{id}/documents: every document of the customer, newest first. */
  list(customerId: string, params?: ListDocumentsParams, options?: RequestOptions) {
    return this.listPages<Document>(`/customers/${segment(customerId)}/documents`, params, options);
  }
}
