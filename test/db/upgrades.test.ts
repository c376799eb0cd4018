/**
 * Upgrades from every released schema: for each migration that ever shipped, a database left at that
 * version with a partner's data in it (written in that version's columns, test/db/upgrade-fixtures.ts) is
 * migrated by the real migrator to the current schema, and its data reads back through the partner API
 * as it was written.
 *
 * The databases are made cheaply: one database is walked forward a migration at a time, the rows each
 * version can first hold written into it, and after every migration a copy of it is kept under that
 * version's name (`CREATE DATABASE … TEMPLATE`, on PostgreSQL and on the embedded database alike). Each
 * copy is then upgraded and read through one app whose database is pointed at each copy in turn.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPublicApp } from '../../src/app.ts';
import type { AppContext } from '../../src/context.ts';
import { migrate, migrationFiles, printMigrationProgress } from '../../src/db/migrate.ts';
import { connectPglite } from '../../src/db/pglite.ts';
import { connectPostgres } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import { openContext } from '../../src/runtime.ts';
import { createDatabase, pgliteCopy } from '../helpers/database.ts';
import { client, testConfig } from '../helpers/server.ts';
import { API_KEY, type Expected, expectedAt, FIXTURES, REVOKED_KEY } from './upgrade-fixtures.ts';

const FILES = migrationFiles();
const versionOf = (file: string) => file.slice(0, file.indexOf('_'));

/** Databases left at each version: a walked one, copies kept of it, each opened alone afterwards. */
type VersionedDatabases = {
  /** The database walked forward, at the version last migrated. */
  walk: Database;
  /** Keeps a copy of the walked database as it is now, under `version`'s name. */
  keep(version: string): Promise<void>;
  /** Closes the walked database; copies can be opened from then on. */
  closeWalk(): Promise<void>;
  open(version: string): Promise<Database>;
  remove(): Promise<void>;
};

/**
 * Where the embedded copies are written: a directory in memory where the system has one. Keeping a copy
 * writes every file of a database; 44 of them took 9.4 s on disk and 2.2 s in /dev/shm.
 */
const SCRATCH = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/**
 * The embedded database: one data directory holding a database per version. It starts from the run's
 * data directory (already initialised, which a fresh one costs seconds of) and walks a database created
 * empty from `template0`. A copy is kept file by file (`STRATEGY FILE_COPY`: faster than writing it
 * through the write-ahead log, and nothing here needs to survive a crash).
 */
async function embeddedDatabases(): Promise<VersionedDatabases> {
  const dir = await mkdtemp(join(SCRATCH, 'ponte-upgrade-'));
  const initialised = (await pgliteCopy(dir))!;
  await initialised.query('CREATE DATABASE upgrade_walk TEMPLATE template0');
  await initialised.close();
  const walk = await connectPglite(dir, undefined, { database: 'upgrade_walk' });
  return {
    walk,
    keep: (version) =>
      walk.exec(`CREATE DATABASE upgrade_${version} TEMPLATE upgrade_walk STRATEGY FILE_COPY`),
    closeWalk: () => walk.close(),
    open: (version) => connectPglite(dir, undefined, { database: `upgrade_${version}` }),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** PostgreSQL: a walked database on the run's server and a database per version copied from it. */
async function postgresDatabases(serverUrl: string): Promise<VersionedDatabases> {
  const walked = await createDatabase(serverUrl, 'ponte_upgrade');
  // one session, so that the walked database can be the template of its own copies
  const walk = connectPostgres(walked.url, { max: 1, preparedStatements: false });
  const copies = new Map<string, string>();
  const nameOf = (version: string) => `${walked.name}_${version}`;
  return {
    walk,
    async keep(version) {
      await walk.exec(`CREATE DATABASE ${nameOf(version)} TEMPLATE ${walked.name}`);
      const url = new URL(walked.url);
      url.pathname = `/${nameOf(version)}`;
      copies.set(version, url.toString());
    },
    closeWalk: () => walk.close(),
    open: async (version) => connectPostgres(copies.get(version)!, { max: 2 }),
    async remove() {
      const admin = connectPostgres(serverUrl, { max: 1, preparedStatements: false });
      try {
        for (const version of copies.keys())
          await admin.exec(`DROP DATABASE IF EXISTS ${nameOf(version)} WITH (FORCE)`);
      } finally {
        await admin.close();
      }
      await walked.drop();
    },
  };
}

/**
 * A database that forwards every statement to the one it is pointed at: the app is built once, and each
 * version's upgraded copy is read through it in turn.
 */
function pointedDatabase(first: Database): Database & { point(db: Database): void } {
  let target = first;
  return {
    get kind() {
      return target.kind;
    },
    point(db) {
      target = db;
    },
    query: (text, params) => target.query(text, params),
    transaction: (work, options) => target.transaction(work, options),
    exec: (script) => target.exec(script),
    // coalesced reads run on `planOnce` where the database has it: forwarded as well
    planOnce: { query: (text, params) => (target.planOnce ?? target).query(text, params) },
    ping: () => target.ping(),
    close: async () => {},
  };
}

const databases: { current?: VersionedDatabases } = {};
let ctx: AppContext | undefined;
let app: FastifyInstance | undefined;
let pointed: ReturnType<typeof pointedDatabase> | undefined;

beforeAll(async () => {
  const { config } = testConfig();
  const versioned = config.databaseUrl
    ? await postgresDatabases(config.databaseUrl)
    : await embeddedDatabases();
  databases.current = versioned;
  for (const file of FILES) {
    await migrate(versioned.walk, { until: file });
    const fixture = FIXTURES[file];
    if (fixture) await versioned.walk.exec(fixture.sql);
    await versioned.keep(versionOf(file));
  }
  await versioned.closeWalk();
}, 120_000);

// dropping a database per released version (each DROP DATABASE checkpoints) takes its time on a busy server
afterAll(async () => {
  await app?.close();
  ctx?.pix.close();
  await databases.current?.remove();
}, 180_000);

async function readAll(api: ReturnType<typeof client>, url: string) {
  const response = await api.get(url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json();
}

/** Every row the version's database holds, read through the partner API, against what was written. */
async function expectReadsBack(api: ReturnType<typeof client>, expected: Expected) {
  const lists = {
    customers: await readAll(api, '/customers?limit=50'),
    bankAccounts: await readAll(api, '/bank-accounts?limit=50'),
    transactions: await readAll(api, '/transactions?limit=50'),
    webhookEndpoints: await readAll(api, '/webhook-endpoints?limit=50'),
  };
  const paths = {
    customers: '/customers',
    bankAccounts: '/bank-accounts',
    transactions: '/transactions',
    webhookEndpoints: '/webhook-endpoints',
  };
  for (const kind of ['customers', 'bankAccounts', 'transactions', 'webhookEndpoints'] as const) {
    const ids = Object.keys(expected[kind]).sort();
    expect(lists[kind].pagination.total, `${kind} total`).toBe(ids.length);
    expect(lists[kind].data.map((item: { id: string }) => item.id).sort(), kind).toEqual(ids);
    for (const [id, answer] of Object.entries(expected[kind])) {
      const one = await readAll(api, `${paths[kind]}/${id}`);
      expect(one, `${paths[kind]}/${id}`).toMatchObject(answer);
      expect(lists[kind].data.find((item: { id: string }) => item.id === id)).toEqual(one);
    }
  }
  for (const [endpoint, deliveries] of Object.entries(expected.deliveries)) {
    const list = await readAll(api, `/webhook-endpoints/${endpoint}/deliveries?limit=50`);
    expect(list.data).toHaveLength(deliveries.length);
    for (const [index, delivery] of deliveries.entries()) expect(list.data[index]).toMatchObject(delivery);
  }
}

describe('upgrades from every released schema', () => {
  it.each(FILES)(
    'a database left by %s, with data in it, upgrades and reads back through the API',
    async (file) => {
      const db = await databases.current!.open(versionOf(file));
      try {
        const lines: string[] = [];
        const applied = await migrate(db, {
          progress: printMigrationProgress({ write: (text: string) => lines.push(text) > 0, isTTY: false }),
        });
        const pending = FILES.slice(FILES.indexOf(file) + 1);
        expect(applied).toEqual(pending);
        // an upgrade prints one line per migration applied
        expect(lines).toHaveLength(pending.length);

        if (!pointed) {
          pointed = pointedDatabase(db);
          // every read looks its key up in the version's database; the reads exceed one key's burst
          const { config } = testConfig({
            PONTE_API_KEY_CACHE_TTL_MS: '0',
            PONTE_RATE_LIMIT_BURST: '1000000',
          });
          ctx = await openContext(config, undefined, pointed);
          app = await buildPublicApp(ctx, 'sandbox');
        }
        pointed.point(db);
        const api = client(app!, API_KEY.key);
        await expectReadsBack(api, expectedAt(FILES, file));
        const revoked = await client(app!, REVOKED_KEY.key).get('/customers');
        expect(revoked.statusCode).toBe(401);
      } finally {
        await db.close();
      }
    },
  );
});
