/**
 * People screened: customers and bank-account holders at creation and again on every new list version
 * (a resumable job); a possible match holds the subject (409 compliance_hold, nothing booked) until an
 * operator clears it (hold lifted) or confirms it (FINAL_REJECTION), audited, with events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBody } from '../bank-accounts/bodies.ts';
import { approvedCustomer, createCustomer, individualBody } from '../helpers/factories.ts';
import { eventually, startTestApi, type TestApi } from '../helpers/server.ts';
import { importFixture, OFAC_DIR, screeningRunsDone } from './support.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ownDatabase: true });
  await importFixture(api.server, 'ofac-sdn', OFAC_DIR);
});
afterAll(() => api.server.close());

const db = () => api.server.ctx.db;

async function casesOf(subjectId: string) {
  const answer = await api.operator.get(`/operator/screening/cases?subjectId=${subjectId}&status=OPEN`);
  expect(answer.statusCode).toBe(200);
  return answer.json().data as {
    id: string;
    subjectType: string;
    customerId: string;
    matches: { sourceUid: string; score: number }[];
  }[];
}

async function events(customerId: string, type: string) {
  return db().query<{ data: { status: string; subjectType: string } }>(
    `SELECT data FROM events WHERE resource_id = $1 AND type = $2 ORDER BY created_at, id`,
    [customerId, type],
  );
}

const counts = async () => {
  const [row] = await db().query<{ transactions: bigint; journals: bigint; chain: bigint }>(
    `SELECT (SELECT count(*) FROM transactions) AS transactions, (SELECT count(*) FROM ledger_journals) AS journals,
            (SELECT count(*) FROM chain_transactions) AS chain`,
  );
  return row;
};

const LISTED_PERSON = {
  name: 'João Carlos dos Santos da Silva',
  birthDate: '1975-02-02',
  country: 'BRA',
};

describe('screening people', () => {
  it('screens a customer at creation: a possible match opens a case and holds the customer', async () => {
    const held = await createCustomer(api.sandbox, individualBody(LISTED_PERSON));
    const clear = await createCustomer(api.sandbox, individualBody({ name: 'Ana Beatriz Souza' }));
    const [found] = await casesOf(held.id);
    expect(found).toMatchObject({ subjectType: 'CUSTOMER', customerId: held.id });
    expect(found!.matches[0]).toMatchObject({ sourceUid: '90004' });
    expect(found!.matches[0]!.score).toBeGreaterThanOrEqual(0.88);
    expect(await casesOf(clear.id)).toEqual([]);
    const [event] = await events(held.id, 'customer.screening.updated');
    expect(event!.data).toMatchObject({ status: 'ON_HOLD', subjectType: 'CUSTOMER', reason: 'NAME_MATCH' });
  });

  it('matches through accents, case, token order, particles and aliases; date of birth and country move the score', async () => {
    const variants = [
      { name: 'SILVA, Joao Carlos Santos', birthDate: '1975-02-02' },
      { name: 'dmitry kovalenko', birthDate: '1979-03-14' },
      { name: 'Faysal Al Rashidi', birthDate: '1968-05-01' },
    ];
    for (const variant of variants) {
      const customer = await createCustomer(api.sandbox, individualBody({ ...variant, country: 'BRA' }));
      expect((await casesOf(customer.id)).length, variant.name).toBe(1);
    }
    // the same name, born decades after the listed person: not held
    const younger = await createCustomer(
      api.sandbox,
      individualBody({ name: 'Dmitri Arkadyevich Kovalenko', birthDate: '2004-07-30', country: 'BRA' }),
    );
    expect(await casesOf(younger.id)).toEqual([]);
  });

  it("a held customer's money movements answer 409 compliance_hold and book nothing", async () => {
    const customer = await approvedCustomer(
      api.sandbox,
      individualBody({ ...LISTED_PERSON, email: 'jc@example.com' }),
    );
    expect((await casesOf(customer.id)).length).toBe(1);
    const before = await counts();
    const onRamp = await api.sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      currency: 'BRL',
      amount: '10.00',
    });
    expect(onRamp.statusCode).toBe(409);
    expect(onRamp.json()).toMatchObject({ code: 'compliance_hold' });
    const transfer = await api.sandbox.post('/transactions/transfer', {
      currency: 'USDC',
      from: customer.id,
      to: '0x52908400098527886E0F7030069857D2E4169EE7',
      amount: '1',
    });
    expect(transfer.statusCode).toBe(409);
    expect(transfer.json().code).toBe('compliance_hold');
    expect(await counts()).toEqual(before);
  });

  it('screens a bank-account holder at creation; payouts to the held account answer 409 compliance_hold', async () => {
    const customer = await approvedCustomer(api.sandbox, individualBody({ name: 'Rafael Nogueira' }));
    const created = await api.sandbox.post(
      '/bank-accounts',
      accountBody(customer.id, { holder: { legalName: 'María José Méndez Guerrero' } }),
    );
    expect(created.statusCode).toBe(201);
    const account = created.json();
    const [found] = await casesOf(account.id);
    expect(found).toMatchObject({ subjectType: 'BANK_ACCOUNT_HOLDER', customerId: customer.id });
    expect(found!.matches[0]!.sourceUid).toBe('90006');
    const before = await counts();
    const offRamp = await api.sandbox.post('/transactions/off-ramp', {
      customerId: customer.id,
      bankAccountId: account.id,
      sourceCurrency: 'USDC',
      sourceAmount: '10',
      purpose: 'PERSONAL_ACCOUNT',
    });
    expect(offRamp.statusCode).toBe(409);
    expect(offRamp.json().code).toBe('compliance_hold');
    expect(await counts()).toEqual(before);
    // the customer's other movements are not held by the holder's case
    const onRamp = await api.sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      currency: 'BRL',
      amount: '10.00',
    });
    expect(onRamp.statusCode).toBe(201);
  });

  it('the review queue shows each case beside the list entries it matched', async () => {
    const customer = await createCustomer(
      api.sandbox,
      individualBody({ name: 'Maria Jose Mendez Guerrero', birthDate: '1982-11-23', country: 'COL' }),
    );
    const [found] = await casesOf(customer.id);
    const detail = await api.operator.get(`/operator/screening/cases/${found!.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      status: 'OPEN',
      screened: { name: 'Maria Jose Mendez Guerrero', birthDate: '1982-11-23', country: 'COL' },
      entries: [
        {
          source: 'OFAC_SDN',
          sourceUid: '90006',
          primaryName: 'Maria Jose MENDEZ GUERRERO',
          birthDates: ['1982-11-23'],
          countries: ['COL'],
          programs: ['SDNTK'],
        },
      ],
    });
    expect(detail.json().matches[0].factors).toEqual(['date of birth matches', 'country matches']);
    expect((await api.operator.get(`/operator/screening/cases/${customer.id}`)).statusCode).toBe(404);
  });

  it('the operator clears a hold: lifted, audited, reported; the same entry does not hold the customer again', async () => {
    const customer = await approvedCustomer(
      api.sandbox,
      individualBody({ ...LISTED_PERSON, email: 'other@example.com' }),
    );
    const [found] = await casesOf(customer.id);
    const blank = await api.operator.post(`/operator/screening/cases/${found!.id}/decision`, {
      decision: 'CLEAR',
      comment: '',
    });
    expect(blank.statusCode).toBe(400);
    const cleared = await api.operator.post(`/operator/screening/cases/${found!.id}/decision`, {
      decision: 'CLEAR',
      comment: 'Different person: CPF and parents names checked',
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ status: 'CLEARED', decidedBy: 'bootstrap' });
    const again = await api.operator.post(`/operator/screening/cases/${found!.id}/decision`, {
      decision: 'CONFIRM',
      comment: 'x',
    });
    expect(again.statusCode).toBe(409);
    const onRamp = await api.sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      currency: 'BRL',
      amount: '10.00',
    });
    expect(onRamp.statusCode).toBe(201);
    const [audit] = await db().query<{ action: string; after: { status: string } }>(
      `SELECT action, after FROM audit_log WHERE resource_id = $1`,
      [found!.id],
    );
    expect(audit).toMatchObject({ action: 'screening.case_cleared', after: { status: 'CLEARED' } });
    const reported = await events(customer.id, 'customer.screening.updated');
    expect(reported.map((e) => e.data.status)).toEqual(['ON_HOLD', 'CLEARED']);
    // a new version re-screens everyone: the cleared match does not hold the customer again
    await importFixture(api.server, 'ofac-sdn', OFAC_DIR);
    await eventually(
      () => screeningRunsDone(api.server),
      (done) => done,
    );
    expect(await casesOf(customer.id)).toEqual([]);
  });

  it("the operator confirms a match: the customer's verification is FINAL_REJECTION, audited, reported", async () => {
    const customer = await approvedCustomer(
      api.sandbox,
      individualBody({ name: 'Dmytro Kovalenko', birthDate: '1979-03-14', email: 'dk@example.com' }),
    );
    const [found] = await casesOf(customer.id);
    const confirmed = await api.operator.post(`/operator/screening/cases/${found!.id}/decision`, {
      decision: 'CONFIRM',
      comment: 'Same date of birth and passport photo',
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().status).toBe('CONFIRMED');
    const read = (await api.sandbox.get(`/customers/${customer.id}`)).json();
    expect(read.verification.status).toBe('FINAL_REJECTION');
    const verificationEvents = await db().query<{
      data: { status: string; statusReason: { rejectLabels: string[] } };
    }>(
      `SELECT data FROM events WHERE type = 'customer.verification.updated' AND resource_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`,
      [customer.verification.id],
    );
    expect(verificationEvents[0]!.data).toMatchObject({
      status: 'FINAL_REJECTION',
      statusReason: { rejectLabels: ['SANCTIONS_MATCH'] },
    });
    expect((await events(customer.id, 'customer.screening.updated')).map((e) => e.data.status)).toEqual([
      'ON_HOLD',
      'CONFIRMED',
    ]);
    const [audit] = await db().query<{ action: string }>(
      `SELECT action FROM audit_log WHERE resource_id = $1`,
      [found!.id],
    );
    expect(audit!.action).toBe('screening.case_confirmed');
    const onRamp = await api.sandbox.post('/transactions/on-ramp', {
      customerId: customer.id,
      currency: 'BRL',
      amount: '10.00',
    });
    expect(onRamp.statusCode).toBe(409);
  });

  it('confirming a holder match rejects the holder: no payout reaches the account', async () => {
    const customer = await approvedCustomer(
      api.sandbox,
      individualBody({ name: 'Paula Andrade', email: 'pa@example.com' }),
    );
    const account = (
      await api.sandbox.post(
        '/bank-accounts',
        accountBody(customer.id, { holder: { legalName: 'Faisal Hamad Al-Rashidi' } }),
      )
    ).json();
    const [found] = await casesOf(account.id);
    const confirmed = await api.operator.post(`/operator/screening/cases/${found!.id}/decision`, {
      decision: 'CONFIRM',
      comment: 'Listed person',
    });
    expect(confirmed.statusCode).toBe(200);
    const read = (await api.sandbox.get(`/bank-accounts/${account.id}`)).json();
    expect(read.holder.verification.status).toBe('FINAL_REJECTION');
  });
});
