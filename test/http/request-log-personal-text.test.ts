/**
 * The request log keeps no personal data written where no field's name says it is: a partner's metadata
 * (an e-mail, a CPF written with spaces, a phone, a passport number, in its values or its keys) is kept
 * with those replaced and the rest as given, and a Travel Rule party's national identifier is redacted in
 * the request and in the IVMS101 record the answer shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { eventually, startTestApi, type TestApi } from '../helpers/server.ts';
import { fund } from '../wallets/support.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    env: { PONTE_TRAVEL_RULE_THRESHOLD: '50', PONTE_REQUEST_LOG_FLUSH_MS: '20' },
  });
});
afterAll(() => api.server.close());

/** The bodies the request log stored for a request, once the recorder has written them. */
async function storedBodies(requestId: string): Promise<{ request: string; response: string }> {
  const [row] = await eventually(
    () =>
      api.server.ctx.db.query<{ request_body: string; response_body: string }>(
        'SELECT request_body, response_body FROM request_log WHERE request_id = $1',
        [requestId],
      ),
    (rows) => rows.length === 1,
  );
  return { request: row!.request_body, response: row!.response_body };
}

const EXTERNAL = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('request log: personal data in free text', { timeout: 60_000 }, () => {
  it("keeps no e-mail, CPF written with spaces, phone or passport number of a customer's metadata", async () => {
    const metadata = {
      contact: 'write to maria.souza@exemplo.com.br',
      note: 'CPF 529 982 247 25, conferido',
      whatsapp: '+55 11 98765-4321',
      travel: 'passaporte nº FZ123456',
      passportNumber: 'YB654321',
      'ana.lima@exemplo.com': 'secondary contact',
      ref: 'order-8841 (2026-11-28)',
    };
    const created = await api.sandbox.post('/customers', individualBody({ taxId: validCpf('3'), metadata }));
    expect(created.statusCode).toBe(201);
    expect(created.json().metadata).toEqual(metadata);
    const stored = await storedBodies(created.headers['x-request-id'] as string);

    const expected = {
      contact: 'write to [redacted-email]',
      note: 'CPF [redacted-tax-id], conferido',
      whatsapp: '[redacted-phone]',
      travel: 'passaporte nº [redacted-document]',
      passportNumber: '[redacted-document]',
      '[redacted-email]': 'secondary contact',
      ref: 'order-8841 (2026-11-28)',
    };
    expect(JSON.parse(stored.request).metadata).toEqual(expected);
    expect(JSON.parse(stored.response).metadata).toEqual(expected);
    for (const clear of [
      'maria.souza',
      'ana.lima',
      '529 982 247 25',
      '98765-4321',
      '987654321',
      'FZ123456',
      'YB654321',
    ]) {
      expect(stored.request).not.toContain(clear);
      expect(stored.response).not.toContain(clear);
    }
  });

  it("redacts a Travel Rule beneficiary's national identifier, in the request and in the IVMS101 record", async () => {
    const customer = await approvedCustomer(api.sandbox);
    // each deposit below the threshold, so that none waits for its originator's data
    for (let i = 0; i < 2; i++) await fund(api.sandbox, customer.id, '40');
    const sent = await api.sandbox.post('/transactions/transfer', {
      currency: 'USDC',
      from: customer.id,
      to: EXTERNAL,
      amount: '60',
      travelRule: {
        beneficiary: {
          name: 'Henrique Batista Lopes',
          country: 'PRT',
          birthDate: '1984-02-29',
          nationalIdentifier: 'CB7654321',
        },
        walletType: 'SELF_HOSTED',
      },
      metadata: { beneficiaryPhone: '+44 20 7946 0958' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(JSON.stringify(sent.json())).toContain('CB7654321');
    const stored = await storedBodies(sent.headers['x-request-id'] as string);

    expect(JSON.parse(stored.request).travelRule.beneficiary).toEqual({
      name: '[redacted]',
      country: 'PRT',
      birthDate: '[redacted]',
      nationalIdentifier: '[redacted]',
    });
    expect(JSON.parse(stored.request).metadata).toEqual({ beneficiaryPhone: '[redacted-phone]' });
    expect(stored.response).toContain('"nationalIdentifier":"[redacted]"');
    for (const clear of ['CB7654321', 'Henrique', 'Lopes', '1984-02-29', '7946 0958']) {
      expect(stored.request).not.toContain(clear);
      expect(stored.response).not.toContain(clear);
    }
  });
});
