/**
 * The matcher's index is built once per set of list versions and shared by concurrent callers. A caller
 * waiting on a build that another caller started through a transaction that then failed builds it
 * again through its own reads, rather than failing with the other caller's error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../src/db/types.ts';
import { indexInForce } from '../../src/modules/screening/lists.ts';
import { startTestApi, type TestApi } from '../helpers/server.ts';
import { importFixture, UN_FILE } from './support.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ownDatabase: true, workers: false });
  await importFixture(api.server, 'un', UN_FILE);
});
afterAll(() => api.server.close());

describe('the shared match index', () => {
  it("survives a build started through another caller's failed transaction", async () => {
    const db = api.server.ctx.db;
    let reached!: () => void;
    const building = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A caller whose transaction fails while its build reads the list's entries.
    const failing = {
      ...db,
      query: async (text: string, values?: unknown[]) => {
        if (/FROM screening_(entries|names)/.test(text)) {
          reached();
          await held;
          throw new Error('current transaction is aborted, commands ignored until end of transaction block');
        }
        return db.query(text, values as never);
      },
    } as Executor;
    // A second caller, which joins that build once it has read the versions in force.
    const joining = {
      ...db,
      query: async (text: string, values?: unknown[]) => {
        const rows = await db.query(text, values as never);
        if (/FROM screening_list_versions WHERE in_force/.test(text)) setImmediate(release);
        return rows;
      },
    } as Executor;
    const first = indexInForce(failing);
    await building;
    const second = indexInForce(joining);
    await expect(first).rejects.toThrow(/aborted/);
    const { index, versionIds } = await second;
    expect(versionIds).toHaveLength(1);
    expect(index).toBeDefined();
  });
});
