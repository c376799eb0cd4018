/**
 * The bank account's primary-key SELECT through each PostgreSQL driver under comparison, each used the
 * way it is by default: `pg` with a Pool and unnamed parameterised statements (as the service does), or
 * with a named statement, prepared once per connection (`pg-prepared`), and
 * postgres.js with its default named prepared statements, cached per connection (`postgres`), or with
 * preparation off (`postgres-unprepared`, which describes every statement before running it).
 */
import pg from 'pg';
import postgres from 'postgres';

export const DRIVERS = ['pg', 'pg-prepared', 'postgres', 'postgres-unprepared'] as const;
export type Driver = (typeof DRIVERS)[number];

export const BANK_ACCOUNT_BY_ID = `SELECT id, customer_id, project_id, environment, name, type, rail, currency,
       key_type, key_value, holder_type, holder_relationship, holder_legal_name, holder_tax_id,
       holder_incorporation_date, holder_email, holder_address, holder_verification_status,
       holder_verification_level, created_at, updated_at
  FROM bank_accounts
 WHERE id = $1 AND project_id = $2 AND environment = $3 AND deleted_at IS NULL`;

export type DriverDb = {
  findBankAccount(id: string, projectId: string, environment: string): Promise<unknown>;
  close(): Promise<void>;
};

export function openDriver(driver: Driver, url: string, max: number): DriverDb {
  if (driver === 'pg' || driver === 'pg-prepared') {
    // dates stay calendar strings, as in the service
    pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
    const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
    // A named statement is parsed and planned once per connection, then only bound and executed.
    const name = driver === 'pg-prepared' ? 'bank_account_by_id' : undefined;
    return {
      async findBankAccount(id, projectId, environment) {
        const values = [id, projectId, environment];
        return (await pool.query({ name, text: BANK_ACCOUNT_BY_ID, values })).rows[0];
      },
      close: () => pool.end(),
    };
  }
  const prepare = driver === 'postgres';
  const sql = postgres(url, {
    max,
    prepare,
    onnotice: () => {},
    // dates stay calendar strings here too, so both drivers answer the same body
    types: { calendarDate: { to: 1082, from: [1082], serialize: (x: string) => x, parse: (x: string) => x } },
  });
  return {
    async findBankAccount(id, projectId, environment) {
      // the same statement text as pg; `prepare` is what a tagged template query would do by default
      return (await sql.unsafe(BANK_ACCOUNT_BY_ID, [id, projectId, environment], { prepare }))[0];
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
