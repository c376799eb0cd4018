/**
 * Operator accounts: platform staff, each with a bearer token shown once and stored only as a hash, so
 * that the audit log names who did what. Creating and revoking an account are audited themselves.
 */

import type { Clock } from '../../core/clock.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { OperatorLookup } from '../../http/auth.ts';
import { generateOperatorToken } from '../../lib/api-key.ts';
import { type Actor, recordAudit } from './audit.ts';
import * as repo from './repo.ts';

export function presentOperator(row: repo.OperatorAccountRow) {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at ? row.revoked_at.toISOString() : null,
  };
}

export type OperatorView = ReturnType<typeof presentOperator>;

/** Adds an operator account in the caller's transaction; returns its token, to be shown once. */
export async function insertOperatorAccount(
  tx: Executor,
  account: { id: string; name: string; created_at: Date },
): Promise<string> {
  const { token, hash } = generateOperatorToken();
  await repo.insertOperator(tx, { ...account, revoked_at: null, token_hash: hash });
  return token;
}

/** How the operator surface authenticates a token: the active account it belongs to. */
export function operatorLookup(db: Database): OperatorLookup {
  return async (tokenHash) => {
    const row = await repo.findActiveOperatorByHash(db, tokenHash);
    return row ? { id: row.id, name: row.name } : undefined;
  };
}

export function createOperatorAccountService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  async function create(actor: Actor, name: string): Promise<OperatorView & { token: string }> {
    const trimmed = name.trim();
    if (trimmed.length === 0) {
      throw new AppError('invalid_request', 'The request body is invalid', {
        errors: [{ pointer: '/body/name', message: 'must not be blank' }],
      });
    }
    const row = { id: newId(), name: trimmed, created_at: clock(), revoked_at: null };
    const token = await db.transaction(async (tx) => {
      const token = await insertOperatorAccount(tx, row);
      await recordAudit(tx, {
        actor,
        action: 'operator.created',
        resourceType: 'operator',
        resourceId: row.id,
        after: { name: trimmed },
        at: row.created_at,
      });
      return token;
    });
    return { ...presentOperator(row), token };
  }

  async function list(page: PageRequest): Promise<PageResult<OperatorView>> {
    const { rows, total } = await repo.listOperators(db, page.limit, page.offset);
    return pageResult(page, rows.map(presentOperator), total);
  }

  /** Revokes an account: its token stops working at once (operator tokens are looked up on every request). */
  async function revoke(actor: Actor, id: string): Promise<void> {
    await db.transaction(async (tx) => {
      const row = await repo.lockOperator(tx, id);
      if (!row || row.revoked_at) throw notFound('Operator');
      const at = clock();
      await repo.revokeOperator(tx, id, at);
      await recordAudit(tx, {
        actor,
        action: 'operator.revoked',
        resourceType: 'operator',
        resourceId: id,
        before: { name: row.name, revokedAt: null },
        after: { name: row.name, revokedAt: at.toISOString() },
        at,
      });
    });
  }

  return { create, list, revoke };
}

/** What other modules may read of an operator account: its row, locked within their transaction. */
export { lockOperator } from './repo.ts';
