/**
 * Money in, as the rail reports it to whoever applies it: an inbound ACH credit or wire to one of Ponte's
 * account numbers, read from Increase itself. A webhook only names an object; `lookUpInbound` reads it
 * (https://increase.com/documentation/webhooks: "we recommend fetching the object"), and `sweepInbound`
 * lists every inbound transfer created after an instant, so one a lost webhook never named is still found.
 * The same transfer may come from both, any number of times: its `bankTransferId` is what makes applying
 * it happen once.
 */
import { fromIncreaseAmount, type IncreaseAmount } from './amounts.ts';
import type { InboundAchTransfer, InboundWireTransfer, IncreaseBank } from './client.ts';
import { type ReadBackFailure, readBack } from './read-back.ts';
import type { IncreaseWebhookEvent } from './webhooks.ts';

export type InboundUsdTransfer = {
  /** Increase's id of the inbound transfer: one per transfer, whichever way it was learnt. */
  bankTransferId: string;
  rail: 'ACH' | 'WIRE';
  accountNumberId: string;
  amount: IncreaseAmount;
  /**
   * PENDING: not yet accepted (it may still be returned); ACCEPTED: the money is in Ponte's account;
   * DECLINED: the bank refused it (a disabled account number); RETURNED: given back (ACH return, wire reversal).
   */
  state: 'PENDING' | 'ACCEPTED' | 'DECLINED' | 'RETURNED';
  /** Who sent it, as the originating bank named them. */
  originatorName: string | null;
  createdAt: Date;
};

/** What a webhook's event leads to: a transfer read back, nothing (another kind of event), or not yet. */
/** A failed read (read-back.ts): look again later, or let the sweep find it. */
export type LookUp =
  | { kind: 'TRANSFER'; transfer: InboundUsdTransfer }
  | { kind: 'IGNORED' }
  | ReadBackFailure;

export function fromInboundAch(transfer: InboundAchTransfer): InboundUsdTransfer | null {
  // a debit pulls money out of the account: Ponte's account numbers block ACH debits, none is money in
  if (transfer.direction !== 'credit') return null;
  const state = (
    { pending: 'PENDING', accepted: 'ACCEPTED', declined: 'DECLINED', returned: 'RETURNED' } as const
  )[transfer.status];
  return {
    bankTransferId: transfer.id,
    rail: 'ACH',
    accountNumberId: transfer.account_number_id,
    amount: fromIncreaseAmount(transfer.amount),
    state,
    originatorName: transfer.originator_company_name || null,
    createdAt: new Date(transfer.created_at),
  };
}

export function fromInboundWire(transfer: InboundWireTransfer): InboundUsdTransfer {
  const state = (
    { pending: 'PENDING', accepted: 'ACCEPTED', declined: 'DECLINED', reversed: 'RETURNED' } as const
  )[transfer.status];
  return {
    bankTransferId: transfer.id,
    rail: 'WIRE',
    accountNumberId: transfer.account_number_id,
    amount: fromIncreaseAmount(transfer.amount),
    state,
    originatorName: transfer.debtor_name,
    createdAt: new Date(transfer.created_at),
  };
}

const INBOUND_TYPES = new Set(['inbound_ach_transfer', 'inbound_wire_transfer']);

/** Reads the inbound transfer an event names; events about anything else are ignored. */
export async function lookUpInbound(bank: IncreaseBank, event: IncreaseWebhookEvent): Promise<LookUp> {
  if (!INBOUND_TYPES.has(event.associated_object_type)) return { kind: 'IGNORED' };
  const id = event.associated_object_id;
  const read = await readBack(async () =>
    event.associated_object_type === 'inbound_ach_transfer'
      ? fromInboundAch(await bank.inboundAchTransfer(id))
      : fromInboundWire(await bank.inboundWireTransfer(id)),
  );
  if (read.kind !== 'READ') return read;
  return read.value ? { kind: 'TRANSFER', transfer: read.value } : { kind: 'IGNORED' };
}

/** Every inbound ACH credit and wire created after `after`, ACH first, each page read in turn. */
export async function* sweepInbound(bank: IncreaseBank, after: Date): AsyncGenerator<InboundUsdTransfer> {
  for await (const transfer of bank.inboundAchTransfersSince(after)) {
    const inbound = fromInboundAch(transfer);
    if (inbound) yield inbound;
  }
  for await (const transfer of bank.inboundWireTransfersSince(after)) yield fromInboundWire(transfer);
}
