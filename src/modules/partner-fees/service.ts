/**
 * A partner's own fee on top of the platform's: `{bps, flat}` per transaction type, set by the operator
 * (API and console) or by the project's admins in the dashboard; every change is audited.
 * The terms in force when a transaction is created are copied onto it, so a later change never
 * reprices a transaction already under way.
 */
import type { Clock } from '../../core/clock.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { AMOUNT_PATTERN, formatAmount, parseAmount } from '../../core/money.ts';
import { readOne } from '../../db/one-statement.ts';
import type { Database, Executor } from '../../db/types.ts';
import { type Actor, actorLabel, recordAudit } from '../operators/audit.ts';
import { findProject } from '../projects/service.ts';
import * as repo from './repo.ts';
import * as terms from './terms.ts';

export async function partnerFeeTerms(
  db: Executor,
  projectId: string,
  type: terms.FeeTransactionType,
): Promise<terms.PartnerFeeTerms> {
  return readOne(db, repo.partnerFeeFact, { projectId, type });
}

/** The highest partner fee in basis points (50%). */
export const MAX_PARTNER_FEE_BPS = 5000;

/** The transaction types a partner fee is set for. */
export { FEE_TRANSACTION_TYPES, type FeeTransactionType } from './terms.ts';

const AMOUNT = new RegExp(AMOUNT_PATTERN);

/** The same rules for every caller (operator API, console, dashboard): 400 naming each bad field. */
function checkTerms(input: { transactionType: string; bps: number; flat: string }): void {
  const errors: { pointer: string; message: string }[] = [];
  if (!(terms.FEE_TRANSACTION_TYPES as readonly string[]).includes(input.transactionType))
    errors.push({
      pointer: '/body/transactionType',
      message: `must be one of ${terms.FEE_TRANSACTION_TYPES.join(', ')}`,
    });
  if (!Number.isInteger(input.bps) || input.bps < 0 || input.bps > MAX_PARTNER_FEE_BPS)
    errors.push({ pointer: '/body/bps', message: `must be a whole number from 0 to ${MAX_PARTNER_FEE_BPS}` });
  if (!AMOUNT.test(input.flat))
    errors.push({ pointer: '/body/flat', message: 'must be an amount in BRL with up to two decimals' });
  if (errors.length > 0) throw new AppError('invalid_request', 'The partner fee is invalid', { errors });
}

/** What a creation reads of the partner's terms, with its other facts: by project and type. */
export { NO_PARTNER_FEE, type PartnerFeeTerms } from './terms.ts';

/** A typed fact other modules read within their own statements. */
export const partnerFeeFact: typeof repo.partnerFeeFact = repo.partnerFeeFact;

export type PartnerFeeView = {
  transactionType: terms.FeeTransactionType;
  bps: number;
  flat: string;
  updatedAt: string | null;
};

const present = (type: terms.FeeTransactionType, row: repo.PartnerFeeRow | undefined): PartnerFeeView => ({
  transactionType: type,
  bps: row?.basis_points ?? 0,
  flat: formatAmount(row?.flat ?? 0n),
  updatedAt: row ? row.updated_at.toISOString() : null,
});

export function createPartnerFeeService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  async function list(projectId: string): Promise<{ data: PartnerFeeView[] }> {
    if (!(await findProject(db, projectId))) throw notFound('Project');
    const rows = await repo.listPartnerFees(db, projectId);
    return {
      data: terms.FEE_TRANSACTION_TYPES.map((type) =>
        present(
          type,
          rows.find((row) => row.transaction_type === type),
        ),
      ),
    };
  }

  async function set(
    actor: Actor,
    projectId: string,
    input: { transactionType: terms.FeeTransactionType; bps: number; flat: string },
  ): Promise<PartnerFeeView> {
    checkTerms(input);
    return db.transaction(async (tx) => {
      if (!(await findProject(tx, projectId))) throw notFound('Project');
      const before = await repo.findPartnerFee(tx, projectId, input.transactionType);
      const row: repo.PartnerFeeRow = {
        project_id: projectId,
        transaction_type: input.transactionType,
        basis_points: input.bps,
        flat: parseAmount(input.flat),
        set_by: actorLabel(actor),
        updated_at: clock(),
      };
      await repo.upsertPartnerFee(tx, row);
      await recordAudit(tx, {
        actor,
        action: 'partner_fee.set',
        resourceType: 'project',
        resourceId: projectId,
        before: before ? present(input.transactionType, before) : undefined,
        after: present(input.transactionType, row),
        at: row.updated_at,
      });
      return present(input.transactionType, row);
    });
  }

  return { list, set };
}
