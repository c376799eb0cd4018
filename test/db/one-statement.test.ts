import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  combinedFacts,
  combinedWrite,
  readEach,
  readFact,
  readOne,
  writeAll,
} from '../../src/db/one-statement.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ workers: false });
});
afterAll(() => server.close());

describe('several statements as one', () => {
  it("numbers each written part's placeholders on after the parts before it", () => {
    const write = combinedWrite([
      { text: 'INSERT INTO t VALUES ($1, $2)', params: [1, 2] },
      { text: 'INSERT INTO u VALUES ($1, $2, $10)', params: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12] },
    ]);
    expect(write.text).toBe('WITH w0 AS (INSERT INTO t VALUES ($1, $2))\nINSERT INTO u VALUES ($3, $4, $12)');
    expect(write.params).toHaveLength(12);
  });

  it('writes every part in one statement, a part referencing the row another part inserts', async () => {
    await server.ctx.db.transaction(async (tx) => {
      await tx.exec(`CREATE TEMP TABLE parent_rows (id int PRIMARY KEY) ON COMMIT DROP;
        CREATE TEMP TABLE child_rows (parent_id int NOT NULL REFERENCES parent_rows (id), note text) ON COMMIT DROP`);
      await writeAll(tx, [
        { text: 'INSERT INTO parent_rows (id) VALUES ($1)', params: [1] },
        { text: 'INSERT INTO child_rows (parent_id, note) VALUES ($1, $2)', params: [1, 'first'] },
      ]);
      expect(await tx.query('SELECT parent_id, note FROM child_rows')).toEqual([
        { parent_id: 1, note: 'first' },
      ]);
      // a part that breaks a constraint fails the whole statement: nothing of it is written
      await tx.exec('SAVEPOINT before_orphan');
      await expect(
        writeAll(tx, [
          { text: 'INSERT INTO parent_rows (id) VALUES ($1)', params: [2] },
          { text: 'INSERT INTO child_rows (parent_id, note) VALUES ($1, $2)', params: [3, 'orphan'] },
        ]),
      ).rejects.toThrow();
      await tx.exec('ROLLBACK TO SAVEPOINT before_orphan');
      expect(await tx.query('SELECT id FROM parent_rows ORDER BY id')).toEqual([{ id: 1 }]);
    });
  });

  const doubled = readFact({
    text: 'SELECT $1::int * 2 AS doubled',
    types: ['int'],
    params: (n: number) => [n],
    decode: (row: { doubled?: number | null }) => row.doubled ?? null,
  });
  const labelled = readFact({
    text: 'SELECT $2::text || $1::text AS label WHERE $1::text <> $3::text',
    types: ['text', 'text', 'text'],
    params: (read: { name: string; prefix: string }) => [read.name, read.prefix, 'none'],
    decode: (row: { label?: string | null }) => row.label ?? null,
  });

  it("numbers each fact's placeholders into the columns of the inputs, one text for any number of inputs", () => {
    const { text } = combinedFacts({ doubled, labelled });
    expect(text).toMatch(/unnest\(\$1::int\[\], \$2::text\[\], \$3::text\[\], \$4::text\[\]\)/);
    expect(text).toContain('(SELECT k.p1::int * 2 AS doubled)');
    expect(text).toContain('(SELECT k.p3::text || k.p2::text AS label WHERE k.p2::text <> k.p4::text)');
    expect(text).not.toMatch(/\$[5-9]/);
  });

  it("reads every fact for each input, in the inputs' order; a fact that finds nothing answers its empty row", async () => {
    const facts = combinedFacts({ doubled, labelled });
    expect(
      await readEach(server.ctx.db, facts, [
        { doubled: 1, labelled: { name: 'a', prefix: 'x-' } },
        { doubled: 2, labelled: { name: 'none', prefix: 'x-' } },
        { doubled: 3, labelled: { name: 'c', prefix: 'y-' } },
      ]),
    ).toEqual([
      { doubled: 2, labelled: 'x-a' },
      { doubled: 4, labelled: null },
      { doubled: 6, labelled: 'y-c' },
    ]);
    expect(await readOne(server.ctx.db, labelled, { name: 'none', prefix: 'x-' })).toBeNull();
    expect(await readOne(server.ctx.db, doubled, 21)).toBe(42);
  });
});
