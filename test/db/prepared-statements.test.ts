import { describe, expect, inject as injected, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { connectPostgres } from '../../src/db/postgres.ts';
import { StatementNames } from '../../src/db/statement-names.ts';

describe('statement names', () => {
  it('gives each distinct text one stable name', () => {
    const names = new StatementNames();
    const a = names.nameFor('SELECT $1::int');
    expect(names.nameFor('SELECT $2::int')).not.toBe(a);
    expect(names.nameFor('SELECT $1::int')).toBe(a);
  });

  it('runs texts past its capacity unnamed, so no cache grows without bound', () => {
    const names = new StatementNames(2);
    expect(names.nameFor('SELECT 1')).toBeDefined();
    expect(names.nameFor('SELECT 2')).toBeDefined();
    expect(names.nameFor('SELECT 3')).toBeUndefined();
    expect(names.nameFor('SELECT 1')).toBeDefined();
    expect(names.size).toBe(2);
  });

  it('PONTE_DATABASE_PREPARED_STATEMENTS turns named statements off', () => {
    expect(loadConfig({}).databasePreparedStatements).toBe(true);
    expect(loadConfig({ PONTE_DATABASE_PREPARED_STATEMENTS: 'false' }).databasePreparedStatements).toBe(
      false,
    );
  });
});

describe.runIf(injected('testDatabaseUrl') !== null)('prepared statements on PostgreSQL', () => {
  const url = injected('testDatabaseUrl')!;
  const prepared = async (preparedStatements: boolean) => {
    const db = connectPostgres(url, { max: 1, preparedStatements });
    try {
      expect(await db.query<{ n: number }>('SELECT $1::int + 1 AS n', [41])).toEqual([{ n: 42 }]);
      expect(await db.query<{ n: number }>('SELECT $1::int + 1 AS n', [1])).toEqual([{ n: 2 }]);
      // in a transaction too, on the same connection
      await db.transaction(async (tx) => {
        expect(await tx.query<{ n: number }>('SELECT $1::int + 1 AS n', [2])).toEqual([{ n: 3 }]);
      });
      const rows = await db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
      return rows.map((row) => row.statement);
    } finally {
      await db.close();
    }
  };

  it('prepares a statement with parameters once per connection and reuses it', async () => {
    expect(await prepared(true)).toEqual(['SELECT $1::int + 1 AS n']);
  });

  it('prepares nothing when turned off (behind a pooler that does not keep them)', async () => {
    expect(await prepared(false)).toEqual([]);
  });
});
