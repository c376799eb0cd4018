/**
 * Lists in, versioned: the OFAC SDN CSV release and the UN consolidated XML load as list versions in one
 * transaction, a bad file is refused whole with the line that broke it, and the operator API shows the
 * versions in force.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPglite } from '../../src/db/pglite.ts';
import type { importFiles } from '../../src/modules/screening/import-files.ts';
import { ListFormatError } from '../../src/modules/screening/sources/types.ts';
import { createCustomer, individualBody } from '../helpers/factories.ts';
import { startTestApi, type TestApi } from '../helpers/server.ts';
import { FIXTURES, importFixture, OFAC_DIR, UN_FILE } from './support.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ownDatabase: true, workers: false });
});
afterAll(() => api.server.close());

const SUBJECTS = `SELECT (SELECT count(*) FROM customers)
  + (SELECT count(*) FROM bank_accounts WHERE deleted_at IS NULL AND holder_relationship <> 'SELF')
  + (SELECT count(*) FROM associated_parties WHERE deleted_at IS NULL) AS n`;

const count = async (sql: string, params: unknown[] = []) =>
  Number((await api.server.ctx.db.query<{ n: bigint }>(sql, params))[0]!.n);

describe('screening lists', () => {
  it('imports an OFAC SDN version: entries, aliases, dates of birth, countries and chain addresses', async () => {
    const counts = await importFixture(api.server, 'ofac-sdn', OFAC_DIR);
    expect(counts).toMatchObject({
      source: 'OFAC_SDN',
      entries: 6,
      aliases: 6,
      names: 12,
      addresses: 6,
    });
    const [kovalenko] = await api.server.ctx.db.query<{
      kind: string;
      primary_name: string;
      birth_dates: string[];
      countries: string[];
      programs: string[];
    }>(
      `SELECT kind, primary_name, birth_dates, countries, programs FROM screening_entries
         WHERE version_id = $1 AND source_uid = '90001'`,
      [counts.versionId],
    );
    expect(kovalenko).toEqual({
      kind: 'INDIVIDUAL',
      primary_name: 'Dmitri Arkadyevich KOVALENKO',
      birth_dates: ['1979-03-14'],
      countries: ['RUS'],
      programs: ['CYBER2', 'RUSSIA-EO14024'],
    });
    const addresses = await api.server.ctx.db.query<{ currency: string; address_key: string }>(
      `SELECT currency, address_key FROM screening_addresses WHERE version_id = $1 ORDER BY currency, address_key`,
      [counts.versionId],
    );
    expect(addresses).toEqual([
      { currency: 'ETH', address_key: '0x5a11ed0000000000000000000000000000000001' },
      { currency: 'ETH', address_key: '0x5a11ed0000000000000000000000000000000003' },
      { currency: 'ETH', address_key: '0x5a11ed00000000000000000000000000000000aa' },
      { currency: 'TRX', address_key: 'TJBTHq2WwaDgtk8LPewYhzH9yNPLSLsu8R' },
      { currency: 'USDT', address_key: 'TJBTHq2WwaDgtk8LPewYhzH9yNPLSLsu8R' },
      { currency: 'XBT', address_key: '1FicT1onaLXbtAddre55z3qPq7sXq9Yw' },
    ]);
    const vessel = await count(
      `SELECT count(*) AS n FROM screening_entries WHERE version_id = $1 AND kind = 'VESSEL'`,
      [counts.versionId],
    );
    expect(vessel).toBe(1);
  });

  it('imports the UN consolidated list: names from FIRST..FOURTH_NAME, aliases, dates of birth, nationalities', async () => {
    const counts = await importFixture(api.server, 'un', UN_FILE);
    expect(counts).toMatchObject({ source: 'UN', entries: 3, aliases: 3, birthDates: 4 });
    const rows = await api.server.ctx.db.query<{
      source_uid: string;
      primary_name: string;
      birth_dates: string[];
      countries: string[];
    }>(
      `SELECT source_uid, primary_name, birth_dates, countries FROM screening_entries WHERE version_id = $1
        ORDER BY source_uid`,
      [counts.versionId],
    );
    expect(rows).toEqual([
      {
        source_uid: 'KPi.902',
        primary_name: 'KIM SONG HWAN',
        birth_dates: ['1966-09-03'],
        countries: ['PRK'],
      },
      {
        source_uid: 'QDe.901',
        primary_name: 'GREEN CRESCENT RELIEF SOCIETY',
        birth_dates: [],
        countries: ['PAK'],
      },
      {
        source_uid: 'QDi.901',
        primary_name: 'TARIQ ABDUL RAHMAN HAQQANY',
        birth_dates: ['1970', '1971', '1972'],
        countries: ['AFG', 'PAK'],
      },
    ]);
  });

  it('refuses a bad file whole, naming the file and the line that broke it, and writes nothing', async () => {
    const before = await count('SELECT count(*) AS n FROM screening_list_versions');
    const entriesBefore = await count('SELECT count(*) AS n FROM screening_entries');
    const refusals: [Parameters<typeof importFiles>[1], string, RegExp][] = [
      ['ofac-sdn', `${FIXTURES}ofac-bad`, /^sdn\.csv line 3: expected 12 fields, found 11$/],
      ['un', `${FIXTURES}un/malformed.xml`, /malformed\.xml line 3\d: /],
      [
        'un',
        `${FIXTURES}un/missing-reference.xml`,
        /line 29: INDIVIDUAL 2: has neither REFERENCE_NUMBER nor DATAID/,
      ],
      ['ofac-sdn', `${FIXTURES}nowhere`, /^sdn\.csv: not found/],
    ];
    for (const [source, path, message] of refusals) {
      const error = await importFixture(api.server, source, path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ListFormatError);
      expect((error as Error).message).toMatch(message);
    }
    expect(await count('SELECT count(*) AS n FROM screening_list_versions')).toBe(before);
    expect(await count('SELECT count(*) AS n FROM screening_entries')).toBe(entriesBefore);
  });

  it('a new version replaces the one in force and queues a re-screening; the operator API shows the versions in force', async () => {
    const second = await importFixture(api.server, 'ofac-sdn', OFAC_DIR);
    const answer = await api.operator.get('/operator/screening/lists');
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.inForce.map((v: { source: string }) => v.source)).toEqual(['OFAC_SDN', 'UN']);
    expect(body.inForce.find((v: { source: string }) => v.source === 'OFAC_SDN')).toMatchObject({
      id: second.versionId,
      entries: 6,
      addresses: 6,
      inForce: true,
    });
    expect(
      body.recent.filter((v: { source: string; inForce: boolean }) => v.source === 'OFAC_SDN'),
    ).toHaveLength(2);
    expect(
      body.runs.some((run: { versionId: string; status: string }) => run.versionId === second.versionId),
    ).toBe(true);
    expect(
      (await api.operator.get('/operator/screening/lists', { authorization: 'Bearer wrong' })).statusCode,
    ).toBe(401);
  });

  it('npm run screening:import prints the counts and its progress, re-screens every subject (or only queues the run), and refuses a bad file with its line and exit code 1', async () => {
    await createCustomer(api.sandbox, individualBody({ name: 'Renata Prado' }));
    const dataDir = mkdtempSync(join(tmpdir(), 'ponte-screening-'));
    const env = {
      ...process.env,
      ...(api.server.databaseUrl ? { DATABASE_URL: api.server.databaseUrl } : { DATABASE_URL: '' }),
      PONTE_DATA_DIR: dataDir,
      PONTE_LOG_LEVEL: 'silent',
    };
    const run = (args: string[]) =>
      promisify(execFile)('npx', ['tsx', 'scripts/screening-import.ts', ...args], { env }).then(
        (result) => ({ code: 0, ...result }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    try {
      const ok = await run(['--source', 'un', UN_FILE]);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(
        /imported UN version [0-9a-f-]{36}: 3 entries, 6 names \(3 aliases\), 4 dates of birth/,
      );
      // not a terminal: quiet lines, each tenth of the way at most
      expect(ok.stderr).toMatch(/^importing: 9\/9 rows \(100%, [\d.]+ s\)$/m);
      expect(ok.stderr).toMatch(/^re-screening: \d+\/\d+ subjects \(100%, [\d.]+ s\)$/m);
      expect(ok.stderr).not.toContain('\r');
      const screened = Number(/re-screened (\d+) subjects: 0 on hold for review/.exec(ok.stdout)?.[1]);
      const done = /version ([0-9a-f-]{36})/.exec(ok.stdout)![1];

      const queued = await run(['--source', 'un', UN_FILE, '--queue-only']);
      expect(queued.code).toBe(0);
      expect(queued.stdout).not.toContain('re-screened');
      const pending = /version ([0-9a-f-]{36})/.exec(queued.stdout)![1];

      // read back in the database the command used: this run's PostgreSQL, or the embedded one it made
      const db = api.server.databaseUrl ? api.server.ctx.db : await connectPglite(dataDir);
      try {
        const countIn = async (sql: string, params: unknown[] = []) =>
          Number((await db.query<{ n: bigint }>(sql, params))[0]!.n);
        expect(screened).toBe(await countIn(SUBJECTS));
        if (api.server.databaseUrl) expect(screened).toBeGreaterThan(0);
        const runStatus = `SELECT count(*) AS n FROM screening_runs WHERE version_id = $1 AND status = $2`;
        expect(await countIn(runStatus, [done, 'DONE'])).toBe(1);
        expect(await countIn(runStatus, [pending, 'PENDING'])).toBe(1);
      } finally {
        if (db !== api.server.ctx.db) await db.close();
      }

      const bad = await run(['--source', 'ofac-sdn', `${FIXTURES}ofac-bad`]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('refused, nothing imported: sdn.csv line 3: expected 12 fields, found 11');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
