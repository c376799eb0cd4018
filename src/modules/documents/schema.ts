import { Type } from 'typebox';
import { DateTime, ListQuery, StringEnum, Uuid } from '../../http/schemas.ts';
import { validatorCompiler } from '../../http/validation.ts';
import {
  API_DOCUMENT_TYPES,
  CONTENT_TYPES,
  DOCUMENT_SIDES,
  MAX_DOCUMENT_BYTES,
  PARTNER_DOCUMENT_TYPES,
} from './kinds.ts';

export const PartnerDocumentTypeSchema = StringEnum(API_DOCUMENT_TYPES, {
  description:
    'What the document is: the evidence of a limit request (its supportingDocumentType), an identity ' +
    "document, or a company's record (for a verification's requirements)",
});

export const DocumentSideSchema = StringEnum(DOCUMENT_SIDES, { description: 'Which side of a card' });

export const DocumentSchema = Type.Object(
  {
    id: Uuid('Document identifier; a limit request names it as supportingDocumentId'),
    type: PartnerDocumentTypeSchema,
    fileName: Type.String({ description: 'The name the file was uploaded with' }),
    size: Type.Integer({ description: 'Size in bytes' }),
    side: Type.Optional(DocumentSideSchema),
    associatedPartyId: Type.Optional(Uuid('The associated party the document is of, when not the customer')),
    createdAt: DateTime(),
  },
  { $id: 'Document', additionalProperties: false },
);

/** The multipart form, described for the API reference; it is read part by part in the route. */
export const UploadDocumentForm = Type.Object(
  {
    file: Type.String({
      format: 'binary',
      description: `PDF, JPEG or PNG (recognised from its content), at most ${MAX_DOCUMENT_BYTES} bytes`,
    }),
    type: Type.Optional({ ...PartnerDocumentTypeSchema, default: PARTNER_DOCUMENT_TYPES[0] }),
    side: Type.Optional(DocumentSideSchema),
    associatedPartyId: Type.Optional(
      Uuid("An associated party of the customer whose document this is (its verification's requirements)"),
    ),
  },
  { additionalProperties: false },
);

/**
 * Validation for routes that take a multipart form: path and query as usual; the form itself is read and
 * checked part by part by the route, so its declared schema only documents it.
 */
export const multipartValidatorCompiler: typeof validatorCompiler = (route) =>
  route.httpPart === 'body' ? () => true : validatorCompiler(route);

export const CustomerDocumentParams = Type.Object(
  { id: Uuid('Customer identifier'), documentId: Uuid('Document identifier') },
  { additionalProperties: false },
);

export const ListDocumentsQuery = Type.Object(ListQuery, { additionalProperties: false });

/** A file answered as is, with its recognised content type. */
export const FileResponse = Type.Unsafe<Buffer>({
  type: 'string',
  format: 'binary',
  description: `The file's bytes, as ${CONTENT_TYPES.join(', ')}`,
});
