/**
 * The sandbox's dollars in: a partner simulates an ACH credit or a wire to one of its customers' accounts
 * at the sandbox's own bank, and it is applied through the same entry point as a transfer Increase
 * reports (bank-deposit.ts), then settled as production settles it.
 */
import { randomUUID } from 'node:crypto';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import { parseAmount } from '../../core/money.ts';
import type { Tenant } from '../../lib/environment.ts';
import { findAccountOf } from '../accounts/service.ts';
import type { SettlementDeps } from '../transactions/in-flight.ts';
import { presentTransaction, type TransactionView } from '../transactions/presenter.ts';
import { findTransaction } from '../transactions/read-service.ts';
import { applyBankTransfer, type BankDepositResult, recordReturnedAtBank } from './bank-deposit.ts';
import type { StepDeps } from './settlement.ts';

export type SandboxAccountDeposit = {
  outcome: Exclude<BankDepositResult['outcome'], 'DUPLICATE'>;
  transaction: TransactionView | null;
  returnReason: string | null;
};

export async function depositToSandboxAccount(
  deps: SettlementDeps & StepDeps,
  tenant: Tenant,
  accountId: string,
  input: { amount: string; rail?: 'ACH' | 'WIRE' | undefined },
): Promise<SandboxAccountDeposit> {
  const amount = parseAmount(input.amount);
  if (amount <= 0n) throw invalidField('/body/amount', 'must be greater than zero');
  const account = await findAccountOf(deps.db, tenant, accountId);
  if (!account) throw notFound('Account');
  if (account.bank !== 'SANDBOX' || !account.bank_account_number_id) {
    throw new AppError(
      'invalid_state_transition',
      account.bank_account_number_id
        ? "This sandbox's accounts are at Increase's sandbox: simulate transfers in with its simulation routes"
        : 'The account has no account number yet (PROVISIONING)',
    );
  }
  const rail = input.rail ?? 'ACH';
  const at = deps.clock();
  const transferId = `sandbox_inbound_${rail.toLowerCase()}_${randomUUID()}`;
  const result = await applyBankTransfer(deps, tenant.environment, {
    bank: 'SANDBOX',
    bankTransferId: transferId,
    rail,
    accountNumberId: account.bank_account_number_id,
    amount,
    originatorName: 'PONTE SANDBOX PAYER',
    at,
    payload: { simulated: true, rail, amount: input.amount },
  });
  // the sandbox's own bank gives back what Ponte could not take at once
  if (result.outcome === 'RETURNED') await recordReturnedAtBank(deps.db, 'SANDBOX', transferId, deps.clock());
  const row = result.transactionId ? await findTransaction(deps.db, tenant, result.transactionId) : undefined;
  return {
    outcome: result.outcome === 'DUPLICATE' ? 'APPLIED' : result.outcome,
    transaction: row ? presentTransaction(row) : null,
    returnReason: result.returnReason,
  };
}
