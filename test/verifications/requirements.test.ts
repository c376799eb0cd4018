import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JPEG } from '../compliance/files.ts';
import { eventsOf } from '../compliance/support.ts';
import { businessBody, createCustomer, individualBody, validCnpj } from '../helpers/factories.ts';
import { type Client, startTestApi, type TestApi, type TestServer } from '../helpers/server.ts';
import {
  acceptTermsOf,
  addParty,
  customerOf,
  personParty,
  representative,
  review,
  upload,
} from './support.ts';

let api: TestApi;
let server: TestServer;
let production: Client;
let operator: Client;

beforeAll(async () => {
  api = await startTestApi();
  ({ server, production, operator } = api);
});
afterAll(() => server.close());

const REJECT = { rejectLabels: ['document_expired'] };
const send = (customerId: string, fields: Record<string, string>, selfie = false) =>
  upload(server.production, api.tenant.productionKey, customerId, fields, selfie ? JPEG : undefined);
const submit = (customerId: string, verificationId: string) =>
  production.post(`/customers/${customerId}/verifications/${verificationId}/submit`, {});

/** The requirements as `name[:party]=status`, for short, exact comparisons. */
async function requirements(customerId: string, parties: Record<string, string> = {}) {
  const customer = await customerOf(production, customerId);
  const list = (await production.get('/customers?limit=50')).json().data;
  // every answer of the customer carries the same list
  expect(list.find((item: { id: string }) => item.id === customerId).requirements).toEqual(
    customer.requirements,
  );
  return customer.requirements.map(
    (r: { name: string; status: string; associatedPartyId?: string }) =>
      `${r.name}${r.associatedPartyId ? `:${parties[r.associatedPartyId] ?? '?'}` : ''}=${r.status}`,
  );
}

describe('requirements on every customer answer', () => {
  it('follow an INDIVIDUAL customer through every transition: terms, documents, submission, review', async () => {
    const created = await createCustomer(production, individualBody());
    expect(created.requirements).toEqual([
      { name: 'TERMS_OF_SERVICE', status: 'NOT_SENT' },
      { name: 'IDENTITY_DOCUMENT', status: 'NOT_SENT' },
      { name: 'SELFIE', status: 'NOT_SENT' },
    ]);
    expect(created.tosAcceptedAt).toBeNull();
    const id = created.id;
    const vid = created.verification.id;
    expect(await requirements(id)).toEqual([
      'TERMS_OF_SERVICE=NOT_SENT',
      'IDENTITY_DOCUMENT=NOT_SENT',
      'SELFIE=NOT_SENT',
    ]);

    expect((await send(id, { type: 'PASSPORT' })).statusCode).toBe(201);
    expect(await requirements(id)).toEqual([
      'TERMS_OF_SERVICE=NOT_SENT',
      'IDENTITY_DOCUMENT=SENT',
      'SELFIE=NOT_SENT',
    ]);
    // submitting with a requirement NOT_SENT: 409, nothing changes
    const early = await submit(id, vid);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('requirements_not_met');
    expect(early.json().detail).toContain('SELFIE is NOT_SENT');

    expect((await send(id, { type: 'SELFIE' }, true)).statusCode).toBe(201);
    expect(await requirements(id)).toEqual([
      'TERMS_OF_SERVICE=NOT_SENT',
      'IDENTITY_DOCUMENT=SENT',
      'SELFIE=SENT',
    ]);
    const noTerms = await submit(id, vid);
    expect(noTerms.statusCode).toBe(409);
    expect(noTerms.json().detail).toContain('TERMS_OF_SERVICE is NOT_SENT');

    await acceptTermsOf(server.production, production, id);
    expect((await customerOf(production, id)).tosAcceptedAt).toMatch(/Z$/);
    expect(await requirements(id)).toEqual([
      'TERMS_OF_SERVICE=APPROVED',
      'IDENTITY_DOCUMENT=SENT',
      'SELFIE=SENT',
    ]);

    expect((await submit(id, vid)).json().status).toBe('UNDER_VERIFICATION');
    expect(await requirements(id)).toEqual([
      'TERMS_OF_SERVICE=APPROVED',
      'IDENTITY_DOCUMENT=SENT',
      'SELFIE=SENT',
    ]);

    await review(operator, vid, { status: 'TEMPORARY_REJECTION', statusReason: REJECT });
    expect(await requirements(id)).toEqual([
      'TERMS_OF_SERVICE=APPROVED',
      'IDENTITY_DOCUMENT=REJECTED',
      'SELFIE=REJECTED',
    ]);
    expect((await send(id, { type: 'DRIVERS_LICENSE', side: 'FRONT' })).statusCode).toBe(201);
    expect(await requirements(id)).toEqual([
      'TERMS_OF_SERVICE=APPROVED',
      'IDENTITY_DOCUMENT=SENT',
      'SELFIE=REJECTED',
    ]);
    expect((await submit(id, vid)).statusCode).toBe(409);
    expect((await send(id, { type: 'SELFIE' }, true)).statusCode).toBe(201);
    expect((await submit(id, vid)).json().status).toBe('UNDER_VERIFICATION');

    await review(operator, vid, { status: 'APPROVED' });
    expect(await requirements(id)).toEqual([
      'TERMS_OF_SERVICE=APPROVED',
      'IDENTITY_DOCUMENT=APPROVED',
      'SELFIE=APPROVED',
    ]);
    // submitting an approved verification: 409 invalid_state_transition
    expect((await submit(id, vid)).json().code).toBe('invalid_state_transition');
  });

  it('say REJECTED after a FINAL_REJECTION', async () => {
    const customer = await createCustomer(production, individualBody());
    await acceptTermsOf(server.production, production, customer.id);
    await send(customer.id, { type: 'ID_CARD' });
    await send(customer.id, { type: 'SELFIE' }, true);
    await submit(customer.id, customer.verification.id);
    await review(operator, customer.verification.id, { status: 'FINAL_REJECTION', statusReason: REJECT });
    expect(await requirements(customer.id)).toEqual([
      'TERMS_OF_SERVICE=APPROVED',
      'IDENTITY_DOCUMENT=REJECTED',
      'SELFIE=REJECTED',
    ]);
  });

  it("follow a BUSINESS customer's documents, UBOs and representatives", async () => {
    const created = await createCustomer(production, businessBody({ taxId: validCnpj() }));
    const id = created.id;
    expect(await requirements(id)).toEqual([
      'TERMS_OF_SERVICE=NOT_SENT',
      'COMPANY_DOCUMENT=NOT_SENT',
      'REPRESENTATIVE=NOT_SENT',
    ]);
    const ubo = await addParty(production, id, personParty({ ownershipPercentage: 25 }));
    await addParty(production, id, personParty({ role: 'SHAREHOLDER', ownershipPercentage: 24.99 }));
    const rep = await addParty(production, id, representative());
    const names = { [ubo.id]: 'ubo', [rep.id]: 'rep' };
    expect(await requirements(id, names)).toEqual([
      'TERMS_OF_SERVICE=NOT_SENT',
      'COMPANY_DOCUMENT=NOT_SENT',
      'IDENTITY_DOCUMENT:ubo=NOT_SENT',
      'SELFIE:ubo=NOT_SENT',
      'IDENTITY_DOCUMENT:rep=NOT_SENT',
      'SELFIE:rep=NOT_SENT',
      'REPRESENTATIVE:rep=NOT_SENT',
    ]);
    await send(id, { type: 'SHAREHOLDER_REGISTRY' });
    await send(id, { type: 'ID_CARD', side: 'FRONT', associatedPartyId: rep.id });
    await send(id, { type: 'SELFIE', associatedPartyId: rep.id }, true);
    expect((await submit(id, rep.verification!.id)).statusCode).toBe(200);
    expect(await requirements(id, names)).toEqual([
      'TERMS_OF_SERVICE=NOT_SENT',
      'COMPANY_DOCUMENT=SENT',
      'IDENTITY_DOCUMENT:ubo=NOT_SENT',
      'SELFIE:ubo=NOT_SENT',
      'IDENTITY_DOCUMENT:rep=SENT',
      'SELFIE:rep=SENT',
      'REPRESENTATIVE:rep=SENT',
    ]);
    await review(operator, rep.verification!.id, { status: 'APPROVED' });
    expect((await requirements(id, names)).slice(-3)).toEqual([
      'IDENTITY_DOCUMENT:rep=APPROVED',
      'SELFIE:rep=APPROVED',
      'REPRESENTATIVE:rep=APPROVED',
    ]);
    // each change of requirements was announced with the customer as the API answers it
    const updates = (await eventsOf(server, id)).filter((event) => event.type === 'customer.updated');
    expect(updates.length).toBeGreaterThanOrEqual(6);
    expect(updates.at(-1)!.data.requirements).toEqual(
      expect.arrayContaining([{ name: 'COMPANY_DOCUMENT', status: 'SENT' }]),
    );
  });
});
