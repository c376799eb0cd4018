import type { PageRequest } from '../../core/pagination.ts';
import { pageWindow } from '../../db/page-query.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import type { AccountStatus } from './schema.ts';

export type AccountBank = 'INCREASE' | 'SANDBOX';

export type AccountRow = {
  id: string;
  customer_id: string;
  project_id: string;
  environment: Environment;
  currency: 'USD';
  destination_currency: 'USDC' | 'USDT';
  blockchain: string;
  status: AccountStatus;
  bank: AccountBank;
  bank_account_number_id: string | null;
  routing_number: string | null;
  account_number: string | null;
  bank_name: string | null;
  bank_address: string | null;
  beneficiary_name: string;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
};

/** What the bank answered for a new account number. */
export type ProvisionedNumber = {
  bankAccountNumberId: string;
  routingNumber: string;
  accountNumber: string;
  bankName: string;
  bankAddress: string | null;
};

const COLUMNS = `id, customer_id, project_id, environment, currency, destination_currency, blockchain, status,
  bank, bank_account_number_id, routing_number, account_number, bank_name, bank_address, beneficiary_name,
  created_at, updated_at, closed_at`;

export async function insertAccount(db: Executor, row: AccountRow): Promise<void> {
  await db.query(
    `INSERT INTO customer_accounts (${COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
    [
      row.id,
      row.customer_id,
      row.project_id,
      row.environment,
      row.currency,
      row.destination_currency,
      row.blockchain,
      row.status,
      row.bank,
      row.bank_account_number_id,
      row.routing_number,
      row.account_number,
      row.bank_name,
      row.bank_address,
      row.beneficiary_name,
      row.created_at,
      row.updated_at,
      row.closed_at,
    ],
  );
}

export async function findAccount(db: Executor, tenant: Tenant, id: string): Promise<AccountRow | undefined> {
  const rows = await db.query<AccountRow>(
    `SELECT ${COLUMNS} FROM customer_accounts WHERE id = $1 AND project_id = $2 AND environment = $3`,
    [id, tenant.projectId, tenant.environment],
  );
  return rows[0];
}

/** The account under a row lock, for a change of its status. */
export async function lockAccount(db: Executor, tenant: Tenant, id: string): Promise<AccountRow | undefined> {
  const rows = await db.query<AccountRow>(
    `SELECT ${COLUMNS} FROM customer_accounts WHERE id = $1 AND project_id = $2 AND environment = $3 FOR UPDATE`,
    [id, tenant.projectId, tenant.environment],
  );
  return rows[0];
}

/** The account an inbound transfer names by the bank's id of its number, under a row lock. */
export async function lockAccountByBankNumber(
  db: Executor,
  bank: AccountBank,
  bankAccountNumberId: string,
): Promise<AccountRow | undefined> {
  const rows = await db.query<AccountRow>(
    `SELECT ${COLUMNS} FROM customer_accounts WHERE bank = $1 AND bank_account_number_id = $2 FOR UPDATE`,
    [bank, bankAccountNumberId],
  );
  return rows[0];
}

export async function activateAccount(
  db: Executor,
  id: string,
  number: ProvisionedNumber,
  at: Date,
): Promise<AccountRow | undefined> {
  const rows = await db.query<AccountRow>(
    `UPDATE customer_accounts SET status = 'ACTIVE', bank_account_number_id = $2, routing_number = $3,
       account_number = $4, bank_name = $5, bank_address = $6, updated_at = $7
     WHERE id = $1 AND status = 'PROVISIONING'
     RETURNING ${COLUMNS}`,
    [
      id,
      number.bankAccountNumberId,
      number.routingNumber,
      number.accountNumber,
      number.bankName,
      number.bankAddress,
      at,
    ],
  );
  return rows[0];
}

/** Accounts of an environment still PROVISIONING since before `before` (their number not yet opened). */
export async function stillProvisioning(
  db: Executor,
  environment: Environment,
  before: Date,
  limit: number,
): Promise<AccountRow[]> {
  return db.query<AccountRow>(
    `SELECT ${COLUMNS} FROM customer_accounts
      WHERE environment = $1 AND status = 'PROVISIONING' AND created_at < $2
      ORDER BY created_at LIMIT $3`,
    [environment, before, limit],
  );
}

export async function closeAccount(db: Executor, id: string, at: Date): Promise<AccountRow | undefined> {
  const rows = await db.query<AccountRow>(
    `UPDATE customer_accounts SET status = 'CLOSED', closed_at = $2, updated_at = $2
     WHERE id = $1 AND status <> 'CLOSED'
     RETURNING ${COLUMNS}`,
    [id, at],
  );
  return rows[0];
}

export async function listCustomerAccounts(
  db: Executor,
  tenant: Tenant,
  customerId: string,
  page: PageRequest,
): Promise<{ rows: AccountRow[]; total: number }> {
  const params: unknown[] = [tenant.projectId, tenant.environment, customerId];
  const where = 'project_id = $1 AND environment = $2 AND customer_id = $3';
  const window = pageWindow(page, '', params.length);
  const [rows, count] = await Promise.all([
    db.query<AccountRow>(
      `SELECT ${COLUMNS} FROM customer_accounts WHERE ${where}${window.and}
        ORDER BY created_at DESC, id DESC ${window.tail}`,
      [...params, ...window.params],
    ),
    db.query<{ n: bigint }>(`SELECT count(*) AS n FROM customer_accounts WHERE ${where}`, params),
  ]);
  return { rows, total: Number(count[0]?.n ?? 0) };
}
