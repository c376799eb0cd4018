import type { PageRequest } from '../../core/pagination.ts';
import { readFact } from '../../db/one-statement.ts';
import { pageWindow } from '../../db/page-query.ts';
import { keyedReads } from '../../db/read-batches.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import type { PixKeyType } from '../../lib/pix-key.ts';
import type { UsAccountType } from '../../lib/us-bank-account.ts';
import type { VerificationStatus } from '../verifications/state.ts';
import type { HolderStatus } from './holder-state.ts';
import type {
  Address,
  BankAccountCurrency,
  BankAccountRail,
  HolderRelationship,
  HolderType,
} from './validation.ts';

export type BankAccountRow = {
  id: string;
  customer_id: string;
  project_id: string;
  environment: Environment;
  name: string;
  type: 'EXTERNAL';
  rail: BankAccountRail;
  currency: BankAccountCurrency;
  /** PIX: the key; null for ACH and WIRE. */
  key_type: PixKeyType | null;
  key_value: string | null;
  /** ACH and WIRE: the US bank account; null for PIX. */
  routing_number: string | null;
  account_number: string | null;
  account_type: UsAccountType | null;
  holder_type: HolderType;
  holder_relationship: HolderRelationship;
  holder_legal_name: string;
  /** Always set for PIX; null for an ACH or WIRE holder given without one. */
  holder_tax_id: string | null;
  holder_incorporation_date: string | null;
  holder_email: string;
  holder_address: Address;
  holder_verification_status: HolderStatus;
  holder_verification_level: string;
  created_at: Date;
  updated_at: Date;
  /** The partner's own keys and values; null when none were given. */
  metadata?: Record<string, string> | null;
};

const COLUMNS = `id, customer_id, project_id, environment, name, type, rail, currency, key_type, key_value,
  routing_number, account_number, account_type, holder_type, holder_relationship, holder_legal_name, holder_tax_id, holder_incorporation_date,
  holder_email, holder_address, holder_verification_status, holder_verification_level,
  created_at, updated_at, metadata`;

export async function insertBankAccount(db: Executor, row: BankAccountRow): Promise<void> {
  await db.query(
    `INSERT INTO bank_accounts (${COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
             $23, $24, $25)`,
    [
      row.id,
      row.customer_id,
      row.project_id,
      row.environment,
      row.name,
      row.type,
      row.rail,
      row.currency,
      row.key_type,
      row.key_value,
      row.routing_number,
      row.account_number,
      row.account_type,
      row.holder_type,
      row.holder_relationship,
      row.holder_legal_name,
      row.holder_tax_id,
      row.holder_incorporation_date,
      row.holder_email,
      JSON.stringify(row.holder_address),
      row.holder_verification_status,
      row.holder_verification_level,
      row.created_at,
      row.updated_at,
      row.metadata ? JSON.stringify(row.metadata) : null,
    ],
  );
}

/**
 * Reads one live account of the tenant by primary key, coalesced with the reads made meanwhile
 * (`read-batches.ts`): one statement for several accounts, each matched on its own tenant.
 */
export function bankAccountReader(
  db: Executor,
): (read: { tenant: Tenant; id: string }) => Promise<BankAccountRow | undefined> {
  return keyedReads(db, {
    table: 'bank_accounts',
    columns: COLUMNS,
    keys: [['id', 'uuid']],
    values: (read) => [read.id],
    where: 't.deleted_at IS NULL',
  });
}

/** What a payout needs of a live bank account of the tenant (null: none such). */
export type PayoutAccount = {
  id: string;
  customerId: string;
  /** PIX pays BRL; ACH and WIRE pay USD. */
  rail: BankAccountRow['rail'];
  currency: BankAccountRow['currency'];
  holderStatus: BankAccountRow['holder_verification_status'];
  holderRelationship: BankAccountRow['holder_relationship'];
} | null;

type PayoutAccountColumns = {
  account_id: string | null;
  account_customer_id: string;
  account_rail: BankAccountRow['rail'];
  account_currency: BankAccountRow['currency'];
  account_holder_status: BankAccountRow['holder_verification_status'];
  account_holder_relationship: BankAccountRow['holder_relationship'];
};

/** A live account of the tenant, by id, as a fact of a combined read. */
export const payoutAccountFact = readFact({
  text: `SELECT id AS account_id, customer_id AS account_customer_id,
                rail AS account_rail, currency AS account_currency,
                holder_verification_status AS account_holder_status,
                holder_relationship AS account_holder_relationship
           FROM bank_accounts
          WHERE id = $1 AND project_id = $2 AND environment = $3 AND deleted_at IS NULL`,
  types: ['uuid', 'uuid', 'text'],
  params: (read: { tenant: Tenant; id: string }) => [read.id, read.tenant.projectId, read.tenant.environment],
  decode: (row: Partial<PayoutAccountColumns>): PayoutAccount =>
    row.account_id === null || row.account_id === undefined
      ? null
      : {
          id: row.account_id,
          customerId: row.account_customer_id!,
          rail: row.account_rail!,
          currency: row.account_currency!,
          holderStatus: row.account_holder_status!,
          holderRelationship: row.account_holder_relationship!,
        },
});

export async function listBankAccounts(
  db: Executor,
  tenant: Tenant,
  filter: { customerId?: string | undefined },
  page: PageRequest,
): Promise<{ rows: BankAccountRow[]; total: number }> {
  const params: unknown[] = [tenant.projectId, tenant.environment];
  let where = 'project_id = $1 AND environment = $2 AND deleted_at IS NULL';
  if (filter.customerId !== undefined) {
    params.push(filter.customerId);
    where += ` AND customer_id = $${params.length}`;
  }
  const window = pageWindow(page, '', params.length);
  const [rows, count] = await Promise.all([
    db.query<BankAccountRow>(
      `SELECT ${COLUMNS} FROM bank_accounts WHERE ${where}${window.and}
        ORDER BY created_at DESC, id DESC ${window.tail}`,
      [...params, ...window.params],
    ),
    db.query<{ n: bigint }>(`SELECT count(*) AS n FROM bank_accounts WHERE ${where}`, params),
  ]);
  return { rows, total: Number(count[0]!.n) };
}

/** Removes a live account of the tenant; false when there is none (missing, foreign or already removed). */
export async function softDeleteBankAccount(
  db: Executor,
  tenant: Tenant,
  id: string,
  at: Date,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE bank_accounts SET deleted_at = $4, updated_at = $4
      WHERE id = $1 AND project_id = $2 AND environment = $3 AND deleted_at IS NULL
      RETURNING id`,
    [id, tenant.projectId, tenant.environment, at],
  );
  return rows.length > 0;
}

export type AccountOwner = { id: string; tax_id: string; verification_status: VerificationStatus };

/**
 * The customer who will own a new account, with the status of their verification. The verification row
 * is share-locked so that a review deciding it cannot commit between this read and the new account.
 */
export async function findAccountOwner(
  db: Executor,
  tenant: Tenant,
  customerId: string,
): Promise<AccountOwner | undefined> {
  const rows = await db.query<AccountOwner>(
    `SELECT c.id, c.tax_id, v.status AS verification_status
       FROM customers c JOIN verifications v ON v.customer_id = c.id
      WHERE c.id = $1 AND c.project_id = $2 AND c.environment = $3
        FOR SHARE OF v`,
    [customerId, tenant.projectId, tenant.environment],
  );
  return rows[0];
}
