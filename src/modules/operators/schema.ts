/** The schemas of the operator accounts and the audit log, and the security every operator route declares. */
import { Type } from 'typebox';
import { DateTime, Nullable, PageQuery, Uuid } from '../../http/schemas.ts';

export const operatorSecurity = [{ operatorAuth: [] as string[] }];

// ---- operator accounts and audit log

export const OperatorSchema = Type.Object({
  id: Uuid(),
  name: Type.String(),
  createdAt: DateTime(),
  revokedAt: Nullable(DateTime()),
});

export const IssuedOperatorSchema = Type.Object({
  ...OperatorSchema.properties,
  token: Type.String({ description: 'The bearer token: shown only in this answer' }),
});

export const CreateOperatorBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200, description: 'Who the account is for' }) },
  { additionalProperties: false },
);

export const AuditEntrySchema = Type.Object({
  id: Uuid(),
  actor: Type.Object({
    id: Nullable(Uuid('The operator account; null for the bootstrap token or first run')),
    name: Type.String(),
  }),
  action: Type.String({ examples: ['limit_request.reviewed'] }),
  resourceType: Type.String({ examples: ['limit_request'] }),
  resourceId: Nullable(Uuid()),
  before: Type.Unknown({ description: 'The state before the action, where there was one' }),
  after: Type.Unknown({ description: 'The state after the action' }),
  createdAt: DateTime(),
});

export const AuditLogQuery = Type.Object(
  {
    actorId: Type.Optional(Uuid('Only the actions of this operator account')),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    resourceType: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    resourceId: Type.Optional(Uuid()),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const ListOperatorsQuery = Type.Object(PageQuery, { additionalProperties: false });
