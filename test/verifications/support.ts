/** Helpers of the KYB suites: party bodies, API uploads and submissions, terms acceptance, reviews. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { form, JPEG, PDF } from '../compliance/files.ts';
import { businessBody, createCustomer, validCnpj, validCpf } from '../helpers/factories.ts';
import type { Client } from '../helpers/server.ts';

export const ADDRESS = {
  line1: 'Av. Paulista, 1000',
  city: 'São Paulo',
  state: 'SP',
  postalCode: '01310-100',
  country: 'BRA',
};

export function personParty(overrides: Record<string, unknown> = {}) {
  return {
    type: 'INDIVIDUAL',
    role: 'UBO',
    name: 'Maria Silva',
    taxId: validCpf('5'),
    birthDate: '1980-01-02',
    email: 'maria@example.com',
    address: ADDRESS,
    ownershipPercentage: 50,
    ...overrides,
  };
}

export function companyParty(overrides: Record<string, unknown> = {}) {
  return {
    type: 'BUSINESS',
    role: 'SHAREHOLDER',
    name: 'Holding Exemplo SA',
    taxId: validCnpj('5'),
    incorporationDate: '2010-03-04',
    email: 'holding@example.com',
    address: ADDRESS,
    ownershipPercentage: 60,
    ...overrides,
  };
}

export const representative = (overrides: Record<string, unknown> = {}) => {
  const { ownershipPercentage: _, ...body } = personParty({ role: 'REPRESENTATIVE', name: 'Rui Costa' });
  return { ...body, ...overrides };
};

export type Party = {
  id: string;
  customerId: string;
  verification?: { id: string; status: string; link: string };
  [key: string]: unknown;
};

export async function addParty(
  api: Client,
  customerId: string,
  body: Record<string, unknown>,
): Promise<Party> {
  const response = await api.post(`/customers/${customerId}/associated-parties`, body);
  if (response.statusCode !== 201) throw new Error(`add party: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** Uploads a document through the API (multipart), optionally for a party and with a side. */
export function upload(
  app: FastifyInstance,
  key: string,
  customerId: string,
  fields: Record<string, string>,
  file: Buffer = PDF,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: `/customers/${customerId}/documents`,
    headers: { authorization: `Bearer ${key}` },
    payload: form({ file: { content: file, name: 'doc.pdf' } }, fields),
  }) as Promise<LightMyRequestResponse>;
}

/** Accepts the customer's terms through a fresh link, as the customer would. */
export async function acceptTermsOf(app: FastifyInstance, api: Client, customerId: string): Promise<void> {
  const link = (await api.post(`/customers/${customerId}/tos`, {})).json();
  const accepted = await app.inject({ method: 'POST', url: new URL(link.url).pathname });
  expect(accepted.statusCode).toBe(200);
}

/** Sends an individual's documents (identity + selfie) through the API and submits its verification. */
export async function submitPerson(
  app: FastifyInstance,
  key: string,
  api: Client,
  customerId: string,
  verificationId: string,
  partyId?: string,
): Promise<LightMyRequestResponse> {
  const party: Record<string, string> = partyId ? { associatedPartyId: partyId } : {};
  expect((await upload(app, key, customerId, { type: 'ID_CARD', side: 'FRONT', ...party })).statusCode).toBe(
    201,
  );
  expect((await upload(app, key, customerId, { type: 'SELFIE', ...party }, JPEG)).statusCode).toBe(201);
  return api.post(`/customers/${customerId}/verifications/${verificationId}/submit`, {});
}

/** A production BUSINESS customer with its terms accepted and company documents submitted for review. */
export async function businessUnderReview(app: FastifyInstance, key: string, api: Client) {
  const customer = await createCustomer(api, businessBody({ taxId: validCnpj() }));
  await acceptTermsOf(app, api, customer.id);
  expect((await upload(app, key, customer.id, { type: 'ARTICLES_OF_INCORPORATION' })).statusCode).toBe(201);
  const submitted = await api.post(
    `/customers/${customer.id}/verifications/${customer.verification.id}/submit`,
    {},
  );
  expect(submitted.statusCode).toBe(200);
  return customer;
}

export const review = (operator: Client, verificationId: string, body: Record<string, unknown>) =>
  operator.post(`/operator/verifications/${verificationId}/review`, body);

export const customerOf = async (api: Client, id: string) => (await api.get(`/customers/${id}`)).json();
