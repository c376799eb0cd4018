/**
 * Associated parties are people screened like customers: at creation and again on every new list
 * version. A possible match holds the business customer's money movements (409 compliance_hold) until an
 * operator decides.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScreening } from '../../src/modules/screening/runs.ts';
import { approvedCustomer, businessBody, validCnpj, validCpf } from '../helpers/factories.ts';
import { eventually, startTestApi, type TestApi } from '../helpers/server.ts';
import { addParty, personParty } from '../verifications/support.ts';
import { importFixture, OFAC_DIR, UN_FILE } from './support.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ownDatabase: true });
  await importFixture(api.server, 'ofac-sdn', OFAC_DIR);
});
afterAll(() => api.server.close());

async function casesOf(subjectId: string) {
  const answer = await api.operator.get(`/operator/screening/cases?subjectId=${subjectId}&status=OPEN`);
  expect(answer.statusCode).toBe(200);
  return answer.json().data as {
    subjectType: string;
    customerId: string;
    matches: { sourceUid: string }[];
  }[];
}

describe('screening associated parties', () => {
  it("screens an associated party at creation: a possible match holds its business customer's money movements", async () => {
    const company = await approvedCustomer(api.sandbox, businessBody({ taxId: validCnpj('4') }));
    const clear = await addParty(
      api.sandbox,
      company.id,
      personParty({ name: 'Beatriz Nogueira Lima', taxId: validCpf('4') }),
    );
    expect(await casesOf(clear.id)).toEqual([]);
    const listed = await addParty(
      api.sandbox,
      company.id,
      personParty({
        name: 'João Carlos dos Santos da Silva',
        birthDate: '1975-02-02',
        taxId: validCpf('6'),
        ownershipPercentage: 30,
      }),
    );
    const [found] = await casesOf(listed.id);
    expect(found).toMatchObject({ subjectType: 'ASSOCIATED_PARTY', customerId: company.id });
    expect(found!.matches[0]).toMatchObject({ sourceUid: '90004' });
    const onRamp = await api.sandbox.post('/transactions/on-ramp', {
      customerId: company.id,
      currency: 'BRL',
      amount: '10.00',
    });
    expect(onRamp.statusCode).toBe(409);
    expect(onRamp.json()).toMatchObject({ code: 'compliance_hold', subjectType: 'ASSOCIATED_PARTY' });
  });

  it('re-screens associated parties when a new list version comes into force', async () => {
    const company = await approvedCustomer(api.sandbox, businessBody({ taxId: validCnpj('7') }));
    const party = await addParty(
      api.sandbox,
      company.id,
      personParty({
        name: 'Tariq Abdulrahman Haqqany',
        birthDate: '1971-01-01',
        taxId: validCpf('7'),
        address: { line1: 'Rua A, 1', city: 'Lahore', state: 'PB', postalCode: '54000', country: 'PAK' },
      }),
    );
    expect(await casesOf(party.id)).toEqual([]);
    await importFixture(api.server, 'un', UN_FILE);
    const [found] = await eventually(
      async () => {
        await runScreening(api.server.ctx);
        return casesOf(party.id);
      },
      (cases) => cases.length === 1,
    );
    expect(found).toMatchObject({ subjectType: 'ASSOCIATED_PARTY', matches: [{ sourceUid: 'QDi.901' }] });
  });
});
