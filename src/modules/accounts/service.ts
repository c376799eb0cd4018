/**
 * Customers' accounts in US dollars. An account is created PROVISIONING in one transaction with its
 * `account.updated` event (only for an APPROVED customer not on compliance hold); its account number is
 * then opened at the bank with no transaction open, and a second transaction makes it ACTIVE with its
 * deposit instructions and another event. Closing marks it CLOSED (with its event) before the bank is
 * told to disable the number, so Ponte refuses a deposit to it from that moment, whatever the bank says.
 */
import type { Clock } from '../../core/clock.ts';
import { notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Logger } from '../../core/logger.ts';
import { type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { approvedForMovements, findCustomer, lockCustomer } from '../customers/service.ts';
import { recordEvent } from '../events/outbox.ts';
import { refuseHeld } from '../screening/service.ts';
import type { AccountNumbers } from './numbers.ts';
import { type AccountView, presentAccount } from './presenter.ts';
import * as repo from './repo.ts';

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

export type CreateAccountInput = {
  currency: 'USD';
  destinationCurrency?: 'USDC' | 'USDT' | undefined;
  blockchain?: string | undefined;
};

async function recordAccountUpdated(tx: Executor, tenant: Tenant, row: repo.AccountRow, at: Date) {
  await recordEvent(tx, {
    tenant,
    type: 'account.updated',
    resourceType: 'account',
    resourceId: row.id,
    data: presentAccount(row),
    at,
  });
}

/**
 * The account an inbound transfer was paid into, locked so that the transfers to one account are applied
 * one after the other (and a transfer seen twice at once is applied once); undefined when no account of
 * Ponte's has that number.
 */
export function lockDepositAccount(
  tx: Executor,
  bank: repo.AccountBank,
  bankAccountNumberId: string,
): Promise<repo.AccountRow | undefined> {
  return repo.lockAccountByBankNumber(tx, bank, bankAccountNumberId);
}

/** The tenant's account as stored (undefined: none of the tenant's). */
export function findAccountOf(
  db: Executor,
  tenant: Tenant,
  id: string,
): Promise<repo.AccountRow | undefined> {
  return repo.findAccount(db, tenant, id);
}

export type { AccountBank, AccountRow } from './repo.ts';

export function createAccountService(deps: {
  db: Database;
  clock: Clock;
  log: Logger;
  chains: Pick<ChainRegistry, 'config'>;
  /** The bank's numbers for this environment (throws 503 where there is none). */
  numbers: () => AccountNumbers;
}) {
  const { db, clock, log, chains } = deps;

  async function provision(
    tenant: Tenant,
    row: repo.AccountRow,
    numbers: AccountNumbers,
  ): Promise<repo.AccountRow> {
    let number: repo.ProvisionedNumber;
    try {
      number = await numbers.open({ accountId: row.id, beneficiaryName: row.beneficiary_name });
    } catch (error) {
      // the account stays PROVISIONING; opening again with the same id answers the same number
      log.error({ err: error, accountId: row.id }, 'opening the account number at the bank failed');
      return row;
    }
    try {
      return await db.transaction(async (tx) => {
        const now = clock();
        const active = await repo.activateAccount(tx, row.id, number, now);
        if (!active) return (await repo.findAccount(tx, tenant, row.id)) ?? row;
        await recordAccountUpdated(tx, tenant, active, now);
        return active;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // the bank answered a number another account already has: never two accounts on one number; the
      // account stays PROVISIONING for an operator to look into
      log.error({ accountId: row.id }, 'the bank answered an account number another account already has');
      return row;
    }
  }

  async function create(tenant: Tenant, customerId: string, input: CreateAccountInput): Promise<AccountView> {
    const numbers = deps.numbers();
    const row = await db.transaction(async (tx) => {
      const customer = approvedForMovements(await lockCustomer(tx, tenant, customerId), 'USD accounts');
      await refuseHeld(tx, [customer.id]);
      const now = clock();
      const created: repo.AccountRow = {
        id: newId(),
        customer_id: customer.id,
        project_id: tenant.projectId,
        environment: tenant.environment,
        currency: input.currency,
        destination_currency: input.destinationCurrency ?? 'USDC',
        blockchain: input.blockchain ?? chains.config.defaultChain,
        status: 'PROVISIONING',
        bank: numbers.bank,
        bank_account_number_id: null,
        routing_number: null,
        account_number: null,
        bank_name: null,
        bank_address: null,
        beneficiary_name: customer.name,
        created_at: now,
        updated_at: now,
        closed_at: null,
      };
      await repo.insertAccount(tx, created);
      await recordAccountUpdated(tx, tenant, created, now);
      return created;
    });
    return presentAccount(await provision(tenant, row, numbers));
  }

  async function get(tenant: Tenant, id: string): Promise<AccountView> {
    const row = await repo.findAccount(db, tenant, id);
    if (!row) throw notFound('Account');
    return presentAccount(row);
  }

  async function listForCustomer(
    tenant: Tenant,
    customerId: string,
    page: PageRequest,
  ): Promise<PageResult<AccountView>> {
    if (!(await findCustomer(db, tenant, customerId))) throw notFound('Customer');
    const { rows, total } = await repo.listCustomerAccounts(db, tenant, customerId, page);
    return pageResult(page, rows.map(presentAccount), total);
  }

  async function close(tenant: Tenant, id: string): Promise<AccountView> {
    const closed = await db.transaction(async (tx) => {
      const row = await repo.lockAccount(tx, tenant, id);
      if (!row) throw notFound('Account');
      if (row.status === 'CLOSED') return { row, changed: false };
      const now = clock();
      const updated = (await repo.closeAccount(tx, row.id, now)) as repo.AccountRow;
      await recordAccountUpdated(tx, tenant, updated, now);
      return { row: updated, changed: true };
    });
    const bankId = closed.row.bank_account_number_id;
    if (closed.changed && bankId) {
      try {
        // where the bank is no longer configured, this throws too: the account is CLOSED all the same
        await deps.numbers().disable(bankId);
      } catch (error) {
        // Ponte already refuses deposits to a CLOSED account; the bank's own refusal is a second line
        log.error({ err: error, accountId: id }, 'disabling the account number at the bank failed');
      }
    }
    return presentAccount(closed.row);
  }

  /**
   * Opens again the numbers of accounts left PROVISIONING (the bank did not answer, or answered an error)
   * for at least `afterMs`: the same idempotency key answers the same number, so a number opened by a
   * call whose answer was lost is found, not opened twice. How many became ACTIVE.
   */
  async function provisionPending(environment: Environment, afterMs: number, limit = 20): Promise<number> {
    const before = new Date(clock().getTime() - afterMs);
    let activated = 0;
    for (const row of await repo.stillProvisioning(db, environment, before, limit)) {
      const tenant = { projectId: row.project_id, environment: row.environment };
      if ((await provision(tenant, row, deps.numbers())).status === 'ACTIVE') activated += 1;
    }
    return activated;
  }

  return { create, get, listForCustomer, close, provisionPending };
}
