import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIF, JPEG, MB, PDF, pngOfSize } from '../compliance/files.ts';
import { eventsOf, submitDocuments } from '../compliance/support.ts';
import { businessBody, createCustomer, validCnpj } from '../helpers/factories.ts';
import { type Client, startTestApi, type TestApi, type TestServer } from '../helpers/server.ts';
import { acceptTermsOf, addParty, personParty, representative, upload } from './support.ts';

let api: TestApi;
let server: TestServer;
let production: Client;
let operator: Client;

beforeAll(async () => {
  api = await startTestApi();
  ({ server, production, operator } = api);
});
afterAll(() => server.close());

const send = (customerId: string, fields: Record<string, string>, file?: Buffer) =>
  upload(server.production, api.tenant.productionKey, customerId, fields, file);
const documentCount = async (customerId: string) =>
  (
    await server.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM documents WHERE customer_id = $1',
      [customerId],
    )
  )[0]!.n;

describe('POST /customers/{id}/documents with type, side and associatedPartyId', () => {
  it('takes every identity and company type, a side, and a party of the customer', async () => {
    const customer = await createCustomer(production, businessBody({ taxId: validCnpj() }));
    const party = await addParty(production, customer.id, representative());
    const types = [
      'PASSPORT',
      'ID_CARD',
      'DRIVERS_LICENSE',
      'RESIDENCE_PERMIT',
      'SELFIE',
      'PROOF_OF_ADDRESS',
      'ARTICLES_OF_INCORPORATION',
      'SHAREHOLDER_REGISTRY',
      'FINANCIAL_STATEMENT',
      'LIMIT_REQUEST_BANK_STATEMENT',
    ];
    for (const type of types) {
      const response = await send(customer.id, { type }, type === 'SELFIE' ? JPEG : PDF);
      expect(response.statusCode, type).toBe(201);
      expect(response.json().type).toBe(type);
    }
    const front = await send(customer.id, { type: 'ID_CARD', side: 'FRONT', associatedPartyId: party.id });
    expect(front.statusCode).toBe(201);
    expect(front.json()).toMatchObject({ type: 'ID_CARD', side: 'FRONT', associatedPartyId: party.id });
    const read = await production.get(`/customers/${customer.id}/documents/${front.json().id}`);
    expect(read.json()).toEqual(front.json());
  });

  it('refuses a bad type, side or party, and a file that is not PDF/JPEG/PNG or is too large, storing nothing', async () => {
    const customer = await createCustomer(production, businessBody({ taxId: validCnpj() }));
    const other = await createCustomer(production, businessBody({ taxId: validCnpj() }));
    const foreignParty = await addParty(production, other.id, representative());
    const cases: [Record<string, string>, Buffer | undefined, number, string][] = [
      [{ type: 'DIPLOMA' }, undefined, 400, '/body/type'],
      [{ type: 'ID_CARD', side: 'TOP' }, undefined, 400, '/body/side'],
      [{ type: 'ID_CARD', associatedPartyId: 'not-a-uuid' }, undefined, 400, '/body/associatedPartyId'],
      [{ type: 'ID_CARD', associatedPartyId: foreignParty.id }, undefined, 400, '/body/associatedPartyId'],
      [
        { type: 'LIMIT_REQUEST_BANK_STATEMENT', associatedPartyId: foreignParty.id },
        undefined,
        400,
        '/body/associatedPartyId',
      ],
      [{ type: 'PASSPORT' }, GIF, 415, '/body/file'],
    ];
    for (const [fields, file, status, pointer] of cases) {
      const response = await send(customer.id, fields, file);
      expect(response.statusCode, JSON.stringify(fields)).toBe(status);
      expect(response.json().errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    expect((await send(customer.id, { type: 'PASSPORT' }, pngOfSize(3 * MB + 1))).statusCode).toBe(413);
    expect(await documentCount(customer.id)).toBe(0);
  });
});

describe('POST /customers/{id}/verifications/{verificationId}/submit', () => {
  it('does what the hosted page does: the same documents on the verification, the same event, the same review', async () => {
    const viaApi = await createCustomer(production);
    const viaPage = await createCustomer(production);
    await acceptTermsOf(server.production, production, viaApi.id);
    await send(viaApi.id, { type: 'PASSPORT' });
    await send(viaApi.id, { type: 'SELFIE' }, JPEG);
    const submitted = await production.post(
      `/customers/${viaApi.id}/verifications/${viaApi.verification.id}/submit`,
      {},
    );
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json()).toMatchObject({ id: viaApi.verification.id, status: 'UNDER_VERIFICATION' });
    await submitDocuments(server.production, viaPage.verification.link);

    const attached = async (verificationId: string) =>
      server.ctx.db.query<{ type: string; content_type: string }>(
        'SELECT type, content_type FROM documents WHERE verification_id = $1 ORDER BY type',
        [verificationId],
      );
    expect(await attached(viaApi.verification.id)).toEqual(await attached(viaPage.verification.id));
    const lastEvent = async (id: string) => (await eventsOf(server, id)).at(-1)!;
    expect((await lastEvent(viaApi.verification.id)).type).toBe('customer.verification.updated');
    expect((await lastEvent(viaApi.verification.id)).data.status).toBe('UNDER_VERIFICATION');
    expect((await lastEvent(viaPage.verification.id)).data.status).toBe('UNDER_VERIFICATION');
    // the operator reviews both the same way, with their documents
    for (const customer of [viaApi, viaPage]) {
      const detail = (await operator.get(`/operator/verifications/${customer.verification.id}`)).json();
      expect(detail.documents.map((d: { type: string }) => d.type).sort()).toEqual(['PASSPORT', 'SELFIE']);
    }
  });

  it("submits an associated party's verification with its own documents", async () => {
    const customer = await createCustomer(production, businessBody({ taxId: validCnpj() }));
    const party = await addParty(production, customer.id, personParty());
    // the customer's documents are not the party's
    await send(customer.id, { type: 'PASSPORT' });
    await send(customer.id, { type: 'SELFIE' }, JPEG);
    const url = `/customers/${customer.id}/verifications/${party.verification!.id}/submit`;
    expect((await production.post(url, {})).json().code).toBe('requirements_not_met');
    await send(customer.id, { type: 'PASSPORT', associatedPartyId: party.id });
    await send(customer.id, { type: 'SELFIE', associatedPartyId: party.id }, JPEG);
    const submitted = await production.post(url, {});
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json()).toMatchObject({ associatedPartyId: party.id, status: 'UNDER_VERIFICATION' });
    const detail = (await operator.get(`/operator/verifications/${party.verification!.id}`)).json();
    expect(detail.associatedParty).toMatchObject({ id: party.id, role: 'UBO' });
    expect(detail.documents).toHaveLength(2);
  });

  it('answers 404 for a verification of another customer, and 409 from a status that takes no submission', async () => {
    const one = await createCustomer(production);
    const two = await createCustomer(production);
    const crossed = await production.post(
      `/customers/${one.id}/verifications/${two.verification.id}/submit`,
      {},
    );
    expect(crossed.statusCode).toBe(404);
    await submitDocuments(server.production, one.verification.link);
    const again = await production.post(
      `/customers/${one.id}/verifications/${one.verification.id}/submit`,
      {},
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('invalid_state_transition');
  });
});
