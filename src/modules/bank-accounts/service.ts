/**
 * Bank accounts of a partner's customers: PIX accounts paid in BRL, and US accounts paid in USD over ACH
 * or wire. An account is created in one
 * transaction with its `bank_account.created` event. Its holder is approved at once only when the
 * customer holds it themself (SELF) and is already approved; any other holder waits, UNDER_VERIFICATION,
 * for an operator to screen it.
 */

import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { invalidField, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { recordEvent } from '../events/outbox.ts';
import { screenSubject } from '../screening/service.ts';
import { initialHolderStatus } from './holder-state.ts';
import { type BankAccountView, presentBankAccount } from './presenter.ts';
import * as repo from './repo.ts';
import {
  type CreateBankAccountInput,
  taxIdKey,
  type ValidBankAccount,
  validateBankAccount,
} from './validation.ts';

export const HOLDER_VERIFICATION_LEVEL = 'BASIC';

const holderVerificationStatus = (account: ValidBankAccount, owner: repo.AccountOwner) =>
  initialHolderStatus(account.holder.relationship === 'SELF', owner.verification_status === 'APPROVED');

export function createBankAccountService(deps: {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'screening'>;
}) {
  const { db, clock, config } = deps;
  const read = repo.bankAccountReader(db);

  async function create(tenant: Tenant, input: CreateBankAccountInput): Promise<BankAccountView> {
    const now = clock();
    const account = validateBankAccount(input, now.toISOString().slice(0, 10));
    return db.transaction(async (tx) => {
      const owner = await repo.findAccountOwner(tx, tenant, input.customerId);
      if (!owner) throw notFound('Customer');
      // a SELF holder is the customer: a taxId given must be theirs (PIX always gives one)
      if (
        account.holder.relationship === 'SELF' &&
        account.holder.taxId !== null &&
        taxIdKey(account.holder.taxId) !== taxIdKey(owner.tax_id)
      ) {
        throw invalidField(
          '/body/holder/taxId',
          "must be the customer's taxId when the relationship is SELF",
        );
      }
      const row: repo.BankAccountRow = {
        id: newId(),
        customer_id: owner.id,
        project_id: tenant.projectId,
        environment: tenant.environment,
        name: account.name,
        type: 'EXTERNAL',
        rail: account.identifier.rail,
        currency: account.identifier.currency,
        key_type: account.identifier.keyType,
        key_value: account.identifier.keyValue,
        routing_number: account.identifier.routingNumber,
        account_number: account.identifier.accountNumber,
        account_type: account.identifier.accountType,
        holder_type: account.holder.type,
        holder_relationship: account.holder.relationship,
        holder_legal_name: account.holder.legalName,
        holder_tax_id: account.holder.taxId,
        holder_incorporation_date: account.holder.incorporationDate,
        holder_email: account.holder.email,
        holder_address: account.holder.address,
        holder_verification_status: holderVerificationStatus(account, owner),
        holder_verification_level: HOLDER_VERIFICATION_LEVEL,
        created_at: now,
        updated_at: now,
        metadata: input.metadata && Object.keys(input.metadata).length > 0 ? input.metadata : null,
      };
      await repo.insertBankAccount(tx, row);
      // a holder other than the customer is screened as a person of its own (the customer already is)
      if (row.holder_relationship !== 'SELF') {
        await screenSubject(
          tx,
          {
            type: 'BANK_ACCOUNT_HOLDER',
            id: row.id,
            customerId: owner.id,
            tenant,
            party: {
              name: row.holder_legal_name,
              kind: row.holder_type,
              country: row.holder_address.country,
            },
          },
          config.screening.threshold,
          now,
        );
      }
      const view = presentBankAccount(row);
      await recordEvent(tx, {
        tenant,
        type: 'bank_account.created',
        resourceType: 'bank_account',
        resourceId: row.id,
        data: view,
        at: now,
      });
      return view;
    });
  }

  async function get(tenant: Tenant, id: string): Promise<BankAccountView> {
    const row = await read({ tenant, id });
    if (!row) throw notFound('Bank account');
    return presentBankAccount(row);
  }

  async function list(
    tenant: Tenant,
    filter: { customerId?: string | undefined },
    page: PageRequest,
  ): Promise<PageResult<BankAccountView>> {
    const { rows, total } = await repo.listBankAccounts(db, tenant, filter, page);
    return pageResult(page, rows.map(presentBankAccount), total);
  }

  async function remove(tenant: Tenant, id: string): Promise<void> {
    if (!(await repo.softDeleteBankAccount(db, tenant, id, clock()))) throw notFound('Bank account');
  }

  return { create, get, list, remove };
}

/** What an off-ramp reads of its payout account, with its other facts: by tenant and id. */
export type { PayoutAccount } from './repo.ts';

/** A typed fact other modules read within their own statements. */
export const payoutAccountFact: typeof repo.payoutAccountFact = repo.payoutAccountFact;
