/**
 * Re-screening on a new list version: a job over every customer and bank-account holder, a batch per
 * transaction, claimed with SKIP LOCKED and resumed from its committed cursor. No workers run here, so
 * the test drives the job itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScreening } from '../../src/modules/screening/runs.ts';
import { accountBody } from '../bank-accounts/bodies.ts';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { startTestApi, type TestApi } from '../helpers/server.ts';
import { importFixture, OFAC_DIR, UN_FILE } from './support.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ownDatabase: true, workers: false });
});
afterAll(() => api.server.close());

const db = () => api.server.ctx.db;

async function casesOf(subjectId: string) {
  const answer = await api.operator.get(`/operator/screening/cases?subjectId=${subjectId}&status=OPEN`);
  return answer.json().data as { subjectType: string; matches: { sourceUid: string }[] }[];
}

describe('re-screening', () => {
  it('re-screens every customer and holder when a new list version comes into force, resumably, batch by batch', async () => {
    const customer = await createCustomer(
      api.sandbox,
      individualBody({ name: 'Tariq Abdulrahman Haqqany', birthDate: '1971-01-01', country: 'PAK' }),
    );
    const owner = await createCustomer(api.sandbox, individualBody({ name: 'Rafael Nogueira' }));
    const account = (
      await api.sandbox.post(
        '/bank-accounts',
        accountBody(owner.id, { holder: { legalName: 'Maria José Méndez Guerrero' } }),
      )
    ).json();
    expect(await casesOf(customer.id)).toEqual([]);
    expect(await casesOf(account.id)).toEqual([]);
    await importFixture(api.server, 'un', UN_FILE);
    await importFixture(api.server, 'ofac-sdn', OFAC_DIR);
    const runs = await db().query<{ id: string }>(
      `SELECT id FROM screening_runs WHERE status = 'PENDING' ORDER BY created_at`,
    );
    expect(runs).toHaveLength(2);
    // one subject per batch: the cursor moves with each committed batch, and the next call resumes from it
    expect(await runScreening(api.server.ctx, 1)).toBe(1);
    const [progress] = await db().query<{ screened: bigint; cursor_id: string; subject_type: string }>(
      `SELECT screened, cursor_id, subject_type FROM screening_runs WHERE id = $1`,
      [runs[0]!.id],
    );
    expect(Number(progress!.screened)).toBe(1);
    expect(progress!.subject_type).toBe('CUSTOMER');
    expect(progress!.cursor_id).not.toBeNull();
    // a running Ponte logs each batch as a quiet line: ids and counts, never a name
    const logged: { obj: unknown; msg: string }[] = [];
    const log = { error() {}, info: (obj: unknown, msg: string) => logged.push({ obj, msg }) };
    while ((await runScreening({ ...api.server.ctx, log }, 2)) > 0);
    expect(logged.filter((line) => line.msg === 'screening run finished').map((line) => line.obj)).toEqual([
      { runId: runs[0]!.id, versionId: expect.any(String), screened: 3, held: 2, done: true },
      { runId: runs[1]!.id, versionId: expect.any(String), screened: 3, held: 0, done: true },
    ]);
    expect(logged.some((line) => line.msg === 'screening run progressed')).toBe(true);
    expect(JSON.stringify(logged)).not.toMatch(/Tariq|Nogueira|Méndez/);
    const done = await db().query<{ status: string; screened: bigint; held: bigint }>(
      `SELECT status, screened, held FROM screening_runs ORDER BY created_at`,
    );
    // each run screens against every list in force when it runs: the first opened both cases, the second
    // found them open and only refreshed their matches
    expect(done.map((run) => [run.status, Number(run.screened), Number(run.held)])).toEqual([
      ['DONE', 3, 2],
      ['DONE', 3, 0],
    ]);
    expect((await casesOf(customer.id))[0]!.matches[0]!.sourceUid).toBe('QDi.901');
    expect(await casesOf(account.id)).toMatchObject([
      { subjectType: 'BANK_ACCOUNT_HOLDER', matches: [{ sourceUid: '90006' }] },
    ]);
  });

  it('a run is claimed by one worker at a time: a second claimant skips it', async () => {
    await importFixture(api.server, 'un', UN_FILE);
    let second: number | undefined;
    await db().transaction(async (tx) => {
      const [held] = await tx.query<{ id: string }>(
        `SELECT id FROM screening_runs WHERE status = 'PENDING' FOR UPDATE`,
      );
      expect(held).toBeDefined();
      if (db().kind === 'postgres') second = await runScreening(api.server.ctx);
    });
    if (db().kind === 'postgres') expect(second).toBe(0);
    while ((await runScreening(api.server.ctx)) > 0);
    const [pending] = await db().query<{ n: bigint }>(
      `SELECT count(*) AS n FROM screening_runs WHERE status = 'PENDING'`,
    );
    expect(Number(pending!.n)).toBe(0);
  });
});
