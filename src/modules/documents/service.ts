/**
 * Documents: files a partner uploads for a customer, kept in the
 * database with their recognised content type. A partner document's id is what a limit request names
 * as its `supportingDocumentId`.
 */

import type { Clock } from '../../core/clock.ts';
import { AppError, type FieldError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import { findCustomer, type LinkMinter, recordCustomerUpdated } from '../customers/service.ts';
import { detectContentType, sha256OfBytes } from './content.ts';
import {
  CONTENT_TYPES,
  type ContentType,
  type DocumentSide,
  type DocumentSource,
  type DocumentType,
  PARTNER_DOCUMENT_TYPES,
} from './kinds.ts';
import type { UploadedFile } from './multipart.ts';
import { type DocumentView, presentDocument, presentOperatorDocument } from './presenter.ts';
import type { DocumentRow } from './repo.ts';
import * as repo from './repo.ts';

export type NewDocument = repo.DocumentRow & { content: Buffer };

/**
 * A document row for an uploaded file, its content recognised from the bytes (415 naming `pointer`
 * when it is not one of `accepted`). Nothing is written.
 */
export async function prepareDocument(input: {
  owner: { customerId: string; projectId: string; environment: Environment };
  source: DocumentSource;
  verificationId: string | null;
  type: DocumentType;
  file: UploadedFile;
  pointer: string;
  accepted?: readonly ContentType[];
  at: Date;
}): Promise<NewDocument> {
  const contentType = await detectContentType(
    input.file.content,
    input.pointer,
    input.accepted ?? CONTENT_TYPES,
  );
  return {
    id: newId(),
    customer_id: input.owner.customerId,
    project_id: input.owner.projectId,
    environment: input.owner.environment,
    source: input.source,
    verification_id: input.verificationId,
    type: input.type,
    file_name: input.file.fileName,
    content_type: contentType,
    size: input.file.content.length,
    sha256: sha256OfBytes(input.file.content),
    created_at: input.at,
    content: input.file.content,
  };
}

/**
 * The problem with a limit request's `supportingDocumentId`, or null when it names a document the
 * partner uploaded for this very customer (same project and environment).
 */
export async function supportingDocumentProblem(
  db: Executor,
  tenant: Tenant,
  customerId: string,
  documentId: string,
): Promise<FieldError | null> {
  const document = await repo.findPartnerDocument(db, tenant, customerId, documentId.toLowerCase());
  return document
    ? null
    : {
        pointer: '/body/supportingDocumentId',
        message: 'must be the id of a document uploaded for this customer (POST /customers/{id}/documents)',
      };
}

const isLimitEvidence = (type: DocumentType) => (PARTNER_DOCUMENT_TYPES as readonly string[]).includes(type);

export function createDocumentService(deps: { db: Database; clock: Clock; link?: LinkMinter }) {
  const { db, clock } = deps;

  async function upload(
    tenant: Tenant,
    customerId: string,
    input: {
      type: DocumentType;
      file: UploadedFile;
      side?: DocumentSide | null;
      associatedPartyId?: string | null;
    },
  ): Promise<DocumentView> {
    const partyId = input.associatedPartyId ?? null;
    if (partyId !== null && isLimitEvidence(input.type)) {
      throw new AppError('invalid_request', 'The upload is invalid', {
        errors: [{ pointer: '/body/associatedPartyId', message: `is not taken with a ${input.type}` }],
      });
    }
    const document = {
      ...(await prepareDocument({
        owner: { customerId, projectId: tenant.projectId, environment: tenant.environment },
        source: 'API',
        verificationId: null,
        type: input.type,
        file: input.file,
        pointer: '/body/file',
        at: clock(),
      })),
      side: input.side ?? null,
      associated_party_id: partyId,
    };
    return db.transaction(async (tx) => {
      if (!(await findCustomer(tx, tenant, customerId))) throw notFound('Customer');
      if (partyId !== null && !(await repo.partyOfCustomer(tx, customerId, partyId))) {
        throw new AppError('invalid_request', 'The upload is invalid', {
          errors: [
            { pointer: '/body/associatedPartyId', message: 'must be an associated party of this customer' },
          ],
        });
      }
      await repo.insertDocument(tx, document);
      // a verification's document changes what the customer's requirements say
      if (!isLimitEvidence(input.type) && deps.link) {
        await recordCustomerUpdated(tx, deps.link, tenant, customerId, document.created_at);
      }
      return presentDocument(document);
    });
  }

  /** 404 unless the customer is the tenant's: checked before an upload is read at all. */
  async function assertCustomer(tenant: Tenant, customerId: string): Promise<void> {
    if (!(await findCustomer(db, tenant, customerId))) throw notFound('Customer');
  }

  async function get(tenant: Tenant, customerId: string, id: string): Promise<DocumentView> {
    const row = await repo.findPartnerDocument(db, tenant, customerId, id);
    if (!row) throw notFound('Document');
    return presentDocument(row);
  }

  async function list(
    tenant: Tenant,
    customerId: string,
    page: PageRequest,
  ): Promise<PageResult<DocumentView>> {
    if (!(await findCustomer(db, tenant, customerId))) throw notFound('Customer');
    const { rows, total } = await repo.listPartnerDocuments(db, tenant, customerId, page);
    return pageResult(page, rows.map(presentDocument), total);
  }

  /** The bytes of a partner document, with what the download needs to describe them. */
  async function content(tenant: Tenant, customerId: string, id: string) {
    const row = await repo.findPartnerDocument(db, tenant, customerId, id);
    const bytes = row ? await repo.readDocumentContent(db, row.id) : undefined;
    if (!row || !bytes) throw notFound('Document');
    return { contentType: row.content_type, fileName: row.file_name, content: bytes };
  }

  return { assertCustomer, upload, get, list, content };
}

/** Operators read any document, whoever owns it. */
export function createOperatorDocumentService(deps: { db: Database }) {
  const { db } = deps;

  async function get(id: string) {
    const row = await repo.findDocument(db, id);
    if (!row) throw notFound('Document');
    return presentOperatorDocument(row);
  }

  async function content(id: string) {
    const row = await repo.findDocument(db, id);
    const bytes = row ? await repo.readDocumentContent(db, row.id) : undefined;
    if (!row || !bytes) throw notFound('Document');
    return { contentType: row.content_type, fileName: row.file_name, content: bytes };
  }

  return { get, content };
}

/** What other modules may do with documents: store one, find one, list a verification's. */
export type { DocumentRow } from './repo.ts';

/**
 * Attaches the API documents waiting for an owner's submission (a customer's, or one party's) to the
 * verification being submitted; returns how many.
 */
export function attachPendingDocuments(
  db: Executor,
  customerId: string,
  associatedPartyId: string | null,
  verificationId: string,
  types: readonly string[],
): Promise<number> {
  return repo.attachPendingDocuments(db, customerId, associatedPartyId, verificationId, types);
}

/** Any document, across tenants (operators). */
export function findDocument(db: Executor, id: string): Promise<DocumentRow | undefined> {
  return repo.findDocument(db, id);
}

export function insertDocument(db: Executor, row: DocumentRow & { content: Buffer }): Promise<void> {
  return repo.insertDocument(db, row);
}

/** Every document of a customer's associated parties, newest first. */
export function listPartyDocuments(db: Executor, customerId: string): Promise<DocumentRow[]> {
  return repo.listPartyDocuments(db, customerId);
}

/** The documents submitted for a verification, newest first. */
export function listVerificationDocuments(db: Executor, verificationId: string): Promise<DocumentRow[]> {
  return repo.listVerificationDocuments(db, verificationId);
}
