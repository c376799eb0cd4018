/**
 * Travel Rule: transfers to external addresses at or above PONTE_TRAVEL_RULE_THRESHOLD carry the
 * beneficiary's data (400 with a pointer without it), stored as IVMS101 and shown on the transaction;
 * deposits at or above it wait in AWAITING_TRAVEL_RULE until the partner supplies the originator, then
 * are credited. The threshold is lowered to 50 USD here so that sandbox deposits below it fund wallets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { approvedCustomer, individualBody } from '../helpers/factories.ts';
import { client, startTestApi, type TestApi } from '../helpers/server.ts';
import { fund, walletOn } from '../wallets/support.ts';
import { importFixture, OFAC_DIR } from './support.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ownDatabase: true, env: { PONTE_TRAVEL_RULE_THRESHOLD: '50' } });
  await importFixture(api.server, 'ofac-sdn', OFAC_DIR);
});
afterAll(() => api.server.close());

const EXTERNAL = '0x52908400098527886E0F7030069857D2E4169EE7';
const balanceOn = async (customerId: string) =>
  (await walletOn(api.sandbox, customerId, 'ETHEREUM')).balances.find((b) => b.currency === 'USDC')?.amount ??
  '0.000000';

async function funded(name: string) {
  const customer = await approvedCustomer(
    api.sandbox,
    individualBody({ name, email: `${name.split(' ')[0]}@example.com` }),
  );
  for (let i = 0; i < 3; i++) await fund(api.sandbox, customer.id, '40');
  return customer;
}

async function depositTo(customerId: string, amount: string, from?: string) {
  const wallet = await walletOn(api.sandbox, customerId, 'ETHEREUM');
  const answer = await api.sandbox.post(`/sandbox/wallets/${wallet.address}/deposit`, {
    currency: 'USDC',
    amount,
    blockchain: 'ETHEREUM',
    ...(from ? { from } : {}),
  });
  expect(answer.statusCode).toBe(201);
  return answer.json();
}

describe('Travel Rule', { timeout: 120_000 }, () => {
  it('defaults to 1000 USD', () => {
    expect(loadConfig({}).screening.travelRuleThreshold).toBe(100_000n);
    expect(() => loadConfig({ PONTE_TRAVEL_RULE_THRESHOLD: 'lots' })).toThrow(/PONTE_TRAVEL_RULE_THRESHOLD/);
  });

  it('requires travelRule on an external transfer at or above the threshold, with a pointer; vasp when HOSTED', async () => {
    const customer = await funded('Eduardo Vasconcelos');
    const base = { currency: 'USDC', from: customer.id, to: EXTERNAL, amount: '50' };
    const refusals: [Record<string, unknown>, string][] = [
      [base, '/body/travelRule'],
      [
        { ...base, travelRule: { beneficiary: { name: 'Clara Nunes' }, walletType: 'HOSTED' } },
        '/body/travelRule/vasp',
      ],
      [
        {
          ...base,
          travelRule: {
            beneficiary: { name: 'Clara Nunes' },
            walletType: 'SELF_HOSTED',
            vasp: { name: 'X' },
          },
        },
        '/body/travelRule/vasp',
      ],
      [
        { ...base, travelRule: { beneficiary: { name: '   ' }, walletType: 'SELF_HOSTED' } },
        '/body/travelRule/beneficiary/name',
      ],
    ];
    for (const [body, pointer] of refusals) {
      const answer = await api.sandbox.post('/transactions/transfer', body);
      expect(answer.statusCode, pointer).toBe(400);
      expect(answer.json().errors[0].pointer).toBe(pointer);
    }
    const schemaRefusal = await api.sandbox.post('/transactions/transfer', {
      ...base,
      travelRule: { walletType: 'HOSTED' },
    });
    expect(schemaRefusal.statusCode).toBe(400);
    expect(await balanceOn(customer.id)).toBe('120.000000');
    // below the threshold, or to another customer, none is needed
    expect(
      (await api.sandbox.post('/transactions/transfer', { ...base, amount: '49.999999' })).statusCode,
    ).toBe(201);
    const other = await approvedCustomer(
      api.sandbox,
      individualBody({ name: 'Clara Nunes', email: 'cn@example.com' }),
    );
    expect(
      (await api.sandbox.post('/transactions/transfer', { ...base, to: other.id, amount: '60' })).statusCode,
    ).toBe(201);
  });

  it('stores the data in IVMS101 shape and shows it on the transaction', async () => {
    const customer = await funded('Gabriela Fontes');
    const answer = await api.sandbox.post('/transactions/transfer', {
      currency: 'USDC',
      from: customer.id,
      to: EXTERNAL,
      amount: '55',
      travelRule: {
        beneficiary: { name: 'Henrique Batista Lopes', country: 'PRT' },
        walletType: 'HOSTED',
        vasp: { name: 'Exchange Exemplo S.A.', lei: '529900T8BM49AURSDO55' },
      },
    });
    expect(answer.statusCode).toBe(201);
    const expected = {
      walletType: 'HOSTED',
      originator: {
        originatorPersons: [
          {
            naturalPerson: {
              name: {
                nameIdentifier: [
                  {
                    primaryIdentifier: 'Fontes',
                    secondaryIdentifier: 'Gabriela',
                    nameIdentifierType: 'LEGL',
                  },
                ],
              },
              nationalIdentification: { nationalIdentifierType: 'TXID' },
            },
          },
        ],
        accountNumber: [(await walletOn(api.sandbox, customer.id, 'ETHEREUM')).address],
      },
      beneficiary: {
        beneficiaryPersons: [
          {
            naturalPerson: {
              name: {
                nameIdentifier: [
                  {
                    primaryIdentifier: 'Lopes',
                    secondaryIdentifier: 'Henrique Batista',
                    nameIdentifierType: 'LEGL',
                  },
                ],
              },
            },
          },
        ],
        accountNumber: [EXTERNAL],
      },
      originatingVASP: {
        originatingVASP: { legalPerson: { name: { nameIdentifier: [{ legalPersonName: 'Ponte' }] } } },
      },
      beneficiaryVASP: {
        beneficiaryVASP: {
          legalPerson: {
            name: {
              nameIdentifier: [
                { legalPersonName: 'Exchange Exemplo S.A.', legalPersonNameIdentifierType: 'LEGL' },
              ],
            },
            nationalIdentification: {
              nationalIdentifier: '529900T8BM49AURSDO55',
              nationalIdentifierType: 'LEIX',
            },
          },
        },
      },
    };
    expect(answer.json().travelRule).toMatchObject(expected);
    const read = await api.sandbox.get(`/transactions/${answer.json().id}`);
    expect(read.json().travelRule).toMatchObject(expected);
  });

  it('holds a deposit at or above the threshold in AWAITING_TRAVEL_RULE until the originator is supplied, then credits it', async () => {
    const customer = await approvedCustomer(
      api.sandbox,
      individualBody({ name: 'Irene Caldas', email: 'ic@example.com' }),
    );
    const small = await depositTo(customer.id, '49.99');
    expect(small.status).toBe('SUCCESS');
    const deposit = await depositTo(customer.id, '75');
    expect(deposit.status).toBe('AWAITING_TRAVEL_RULE');
    expect(await balanceOn(customer.id)).toBe('49.990000');
    const url = `/transactions/${deposit.id}/travel-rule`;
    const missingVasp = await api.sandbox.post(url, {
      originator: { name: 'Jorge Amado Filho' },
      walletType: 'HOSTED',
    });
    expect(missingVasp.statusCode).toBe(400);
    expect(missingVasp.json().errors[0].pointer).toBe('/body/vasp');
    const stranger = await api.server.newTenant('Stranger');
    expect(
      (
        await client(api.server.sandbox, stranger.sandboxKey).post(url, {
          originator: { name: 'X Y' },
          walletType: 'SELF_HOSTED',
        })
      ).statusCode,
    ).toBe(404);
    const supplied = await api.sandbox.post(url, {
      originator: { name: 'Jorge Amado Filho', type: 'INDIVIDUAL' },
      walletType: 'HOSTED',
      vasp: { name: 'Outra Exchange Ltda' },
    });
    expect(supplied.statusCode).toBe(200);
    expect(supplied.json()).toMatchObject({
      status: 'SUCCESS',
      travelRule: {
        walletType: 'HOSTED',
        originator: {
          originatorPersons: [
            { naturalPerson: { name: { nameIdentifier: [{ primaryIdentifier: 'Filho' }] } } },
          ],
        },
        originatingVASP: {
          originatingVASP: {
            legalPerson: { name: { nameIdentifier: [{ legalPersonName: 'Outra Exchange Ltda' }] } },
          },
        },
      },
    });
    expect(supplied.json().timeline.map((s: { status: string }) => s.status)).toEqual([
      'AWAITING_TRAVEL_RULE',
      'PROCESSING',
      'SUCCESS',
    ]);
    expect(await balanceOn(customer.id)).toBe('124.990000');
    const again = await api.sandbox.post(url, {
      originator: { name: 'Jorge Amado Filho' },
      walletType: 'SELF_HOSTED',
    });
    expect(again.statusCode).toBe(409);
  });

  it('an originator whose name may be listed holds the deposit, uncredited, for review', async () => {
    const customer = await approvedCustomer(
      api.sandbox,
      individualBody({ name: 'Joana Prates', email: 'jp@example.com' }),
    );
    const deposit = await depositTo(customer.id, '80');
    const supplied = await api.sandbox.post(`/transactions/${deposit.id}/travel-rule`, {
      originator: { name: 'Faisal Al-Rashidi', birthDate: '1968-03-01' },
      walletType: 'SELF_HOSTED',
    });
    expect(supplied.statusCode).toBe(200);
    expect(supplied.json().status).toBe('PROCESSING');
    expect(await balanceOn(customer.id)).toBe('0.000000');
    const cases = (await api.operator.get(`/operator/screening/cases?subjectId=${deposit.id}`)).json().data;
    expect(cases).toMatchObject([
      { subjectType: 'DEPOSIT', reason: 'NAME_MATCH', matches: [{ sourceUid: '90002' }] },
    ]);
  });
});
