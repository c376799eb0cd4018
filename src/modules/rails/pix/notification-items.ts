/**
 * The items of a provider notification, each checked on its own: a batch is processed item by item,
 * and one item that cannot be read is recorded and answered without holding up the others.
 */
import { type Static, Type } from 'typebox';
import { newId } from '../../../core/ids.ts';
import type { Executor } from '../../../db/types.ts';
import { DateTime, StringEnum } from '../../../http/schemas.ts';
import { compileStrict } from '../../../http/validation.ts';
import { END_TO_END_ID_PATTERN } from './end-to-end-id.ts';
import type { PayoutResult } from './payout.ts';

export const DepositItem = Type.Object(
  {
    endToEndId: Type.String({ pattern: END_TO_END_ID_PATTERN }),
    txid: Type.String({ pattern: '^[A-Za-z0-9]{1,35}$' }),
    // a payment of zero is no payment: refused like any malformed amount
    valor: Type.String({ pattern: '^(?!0+\\.00$)\\d{1,10}\\.\\d{2}$' }),
    horario: DateTime('When the payment was settled'),
  },
  // providers add fields of their own (chave, infoPagador, devolucoes...): kept, not refused
  { additionalProperties: true },
);
export type DepositItem = Static<typeof DepositItem>;

export const PayoutResultItem = Type.Object(
  {
    endToEndId: Type.String({ pattern: END_TO_END_ID_PATTERN }),
    status: StringEnum(['COMPLETED', 'REJECTED', 'RETURNED'] as const),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: true },
);
export type PayoutResultItem = Static<typeof PayoutResultItem>;

const checkDeposit = compileStrict(DepositItem);
const checkPayout = compileStrict(PayoutResultItem);

function problem(errors: typeof checkDeposit.errors): string {
  const first = errors?.[0];
  return first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : 'is invalid';
}

export function readDeposit(item: unknown): DepositItem | string {
  return checkDeposit(item) ? (item as DepositItem) : problem(checkDeposit.errors);
}

export function readPayoutResult(item: unknown): PayoutResultItem | string {
  return checkPayout(item) ? (item as PayoutResultItem) : problem(checkPayout.errors);
}

/** The result a readable item reports (a rejection or return without a reason says so). */
export function payoutResultOf(item: PayoutResultItem): PayoutResult {
  if (item.status === 'COMPLETED') return { status: 'COMPLETED' };
  return { status: item.status, reason: item.reason ?? 'no reason given by the provider' };
}

/** Keeps an unreadable item for operations. */
export async function recordRejectedItem(
  db: Executor,
  item: unknown,
  reason: string,
  at: Date,
): Promise<void> {
  await db.query(
    'INSERT INTO pix_notification_rejects (id, item, reason, received_at) VALUES ($1, $2, $3, $4)',
    [newId(), JSON.stringify(item ?? null), reason, at],
  );
}

/** The end-to-end id of an item, when it has a readable one, to name it in the answer. */
export function itemId(item: unknown): string {
  const value = (item as { endToEndId?: unknown } | null)?.endToEndId;
  return typeof value === 'string' ? value.slice(0, 64) : '';
}
