/**
 * What a document may be: its purpose (`type`) and its content, recognised from the bytes themselves
 * (never from the file name or the declared content type). At most 3 MB.
 */
export const MAX_DOCUMENT_BYTES = 3 * 1024 * 1024;

/** Evidence a limit request may name as its supporting document. */
export const SUPPORTING_DOCUMENT_TYPES = ['LIMIT_REQUEST_BANK_STATEMENT'] as const;
export type SupportingDocumentType = (typeof SUPPORTING_DOCUMENT_TYPES)[number];

/** Documents a partner uploads through the API: evidence for a limit request. */
export const PARTNER_DOCUMENT_TYPES = SUPPORTING_DOCUMENT_TYPES;
export type PartnerDocumentType = (typeof PARTNER_DOCUMENT_TYPES)[number];

/** Identity documents an end customer uploads on the hosted verification page. */
export const IDENTITY_DOCUMENT_TYPES = ['PASSPORT', 'ID_CARD', 'DRIVERS_LICENSE'] as const;
export type IdentityDocumentType = (typeof IDENTITY_DOCUMENT_TYPES)[number];

/** A company's founding records: either satisfies a business's COMPANY_DOCUMENT requirement. */
export const COMPANY_DOCUMENT_TYPES = ['ARTICLES_OF_INCORPORATION', 'SHAREHOLDER_REGISTRY'] as const;
export type CompanyDocumentType = (typeof COMPANY_DOCUMENT_TYPES)[number];

/** Documents a verification takes through the API: a person's identity, and a company's records. */
export const VERIFICATION_DOCUMENT_TYPES = [
  'PASSPORT',
  'ID_CARD',
  'DRIVERS_LICENSE',
  'RESIDENCE_PERMIT',
  'SELFIE',
  'PROOF_OF_ADDRESS',
  'ARTICLES_OF_INCORPORATION',
  'SHAREHOLDER_REGISTRY',
  'FINANCIAL_STATEMENT',
] as const;
export type VerificationDocumentType = (typeof VERIFICATION_DOCUMENT_TYPES)[number];

/** Every type a partner may upload through `POST /customers/{id}/documents`. */
export const API_DOCUMENT_TYPES = [...PARTNER_DOCUMENT_TYPES, ...VERIFICATION_DOCUMENT_TYPES] as const;
export type ApiDocumentType = (typeof API_DOCUMENT_TYPES)[number];

export const DOCUMENT_SIDES = ['FRONT', 'BACK'] as const;
export type DocumentSide = (typeof DOCUMENT_SIDES)[number];

export type DocumentType = PartnerDocumentType | IdentityDocumentType | VerificationDocumentType;

export const CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export const IMAGE_CONTENT_TYPES: readonly ContentType[] = ['image/jpeg', 'image/png'];

export const DOCUMENT_SOURCES = ['API', 'HOSTED_PAGE'] as const;
export type DocumentSource = (typeof DOCUMENT_SOURCES)[number];
