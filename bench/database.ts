/**
 * The benchmark's own PostgreSQL database: created fresh on the configured server, migrated with the
 * service's real migrations, given a project and a production API key through the real project service
 * (so the stored key hash is exactly what the service computes), and dropped at the end.
 */
import pg from 'pg';
import { systemClock } from '../src/core/clock.ts';
import { migrate } from '../src/db/migrate.ts';
import { connectPostgres } from '../src/db/postgres.ts';
import type { Tenant } from '../src/lib/environment.ts';
import { ApiKeyCache } from '../src/modules/projects/key-cache.ts';
import { createProjectService } from '../src/modules/projects/service.ts';

export type BenchDatabase = { name: string; url: string; drop(): Promise<void> };

async function admin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `ponte_bench_${Date.now()}_${process.pid}`;
  await admin(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await admin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Runs the service's migrations and issues the partner's key; returns the tenant and its secret key. */
export async function prepareTenant(url: string): Promise<{ tenant: Tenant; apiKey: string }> {
  const db = connectPostgres(url, { max: 2 });
  try {
    await migrate(db);
    const projects = createProjectService({ db, clock: systemClock, keys: new ApiKeyCache(db, 0) });
    const actor = { id: null, name: 'benchmark' };
    const project = await projects.createProject(actor, 'Benchmark partner');
    const key = await projects.issueApiKey(actor, project.id, 'production', 'benchmark');
    return { tenant: { projectId: project.id, environment: 'production' }, apiKey: key.key };
  } finally {
    await db.close();
  }
}
