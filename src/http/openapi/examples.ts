/** Example answers of the reads partners start with, shown in the reference and checked by the linter. */
const customerId = '3f1c2a9e-5b7d-4e2f-9a61-0c8d7e5b4a21';

const limitRequest = {
  id: '8b0e6f3a-2c4d-4a5b-9e7f-1d2c3b4a5e6f',
  customerId,
  requested: { single: '50000.00', daily: '100000.00', monthly: '500000.00' },
  approved: { single: '30000.00', daily: '60000.00', monthly: '300000.00' },
  supportingDocumentType: 'LIMIT_REQUEST_BANK_STATEMENT',
  supportingDocumentId: 'c7d8e9f0-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
  status: 'PARTIALLY_APPROVED',
  reviewComment: 'Approved at the level the bank statements support',
  createdAt: '2026-03-02T14:05:11.000Z',
  updatedAt: '2026-03-03T09:40:27.000Z',
};

const verification = {
  id: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
  customerId,
  status: 'TEMPORARY_REJECTION',
  level: 'STANDARD',
  statusReason: {
    rejectLabels: ['unsatisfactory_photos'],
    rejectSubLabels: ['badPhoto'],
    documents: [
      {
        type: 'PASSPORT',
        status: 'TEMPORARY_REJECTION',
        comment: 'The photo page is blurred',
        rejectLabels: ['unsatisfactory_photos'],
      },
    ],
  },
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T12:30:00.000Z',
};

const bankAccount = {
  id: '1b2c3d4e-5f60-4718-92a3-b4c5d6e7f809',
  customerId,
  name: 'Main operating account',
  type: 'EXTERNAL',
  rail: 'PIX',
  currency: 'BRL',
  identifier: { keyType: 'CNPJ', keyValue: '12.345.678/0001-95' },
  holder: {
    type: 'BUSINESS',
    relationship: 'SELF',
    legalName: 'Exemplo Comércio Ltda',
    taxId: '12.345.678/0001-95',
    incorporationDate: '2019-05-14',
    email: 'finance@exemplo.com.br',
    address: {
      line1: 'Avenida Paulista, 1000',
      city: 'São Paulo',
      state: 'SP',
      postalCode: '01310-100',
      country: 'BRA',
    },
    verification: { status: 'APPROVED', level: 'BASIC' },
  },
  createdAt: '2026-03-04T08:15:00.000Z',
  updatedAt: '2026-03-04T08:15:00.000Z',
};

/** Keyed by "METHOD /path"; the example of the operation's 200 answer. */
export const READ_EXAMPLES: Record<string, unknown> = {
  'GET /customers/{id}/limit-requests/{limitRequestId}': limitRequest,
  'GET /customers/{id}/limit-requests': {
    data: [limitRequest],
    pagination: { size: 20, total: 1, hasNextPage: false, page: 1, nextCursor: null },
  },
  'GET /customers/{id}/verifications/{verificationId}': verification,
  'GET /bank-accounts/{id}': bankAccount,
};
