/**
 * A compliance hold stops a chain send at the moment it would leave, as it stops a payout: an on-ramp's
 * delivery or a transfer to an address, accepted before the hold and still queued (a node that was down), is
 * looked at again in the transaction that signs it. Its customer on hold: it is held, never signed, its
 * reserve kept, until the case is decided; a match already confirmed: it is refused, the reserve released. A
 * decision releases or refuses the held ones at once.
 */
import type { Executor } from '../../db/types.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import type { DecidedCase, DeliveryHandler } from '../offers.ts';
import { holdsAtSend } from '../screening/service.ts';
import { refuseSend } from './send-outcome.ts';
import {
  holdSend,
  lockHeldSendsOf,
  markSend,
  releaseHeldSend,
  type SendRow,
  sendCustomers,
} from './sends-repo.ts';

const REFUSED = 'refused by compliance: a sanctions screening match was confirmed';

async function refuse(
  tx: Executor,
  chains: ChainRegistry,
  deliveries: DeliveryHandler,
  send: SendRow,
  at: Date,
): Promise<void> {
  await markSend(tx, send.id, 'FAILED', at, REFUSED);
  await refuseSend(tx, chains, deliveries, send, at);
}

/**
 * Of queued sends just locked for signing (in the signing transaction), those free to leave; the others
 * are held or refused here, in the same transaction, so a hold committed before the signing is never
 * missed.
 */
export async function sendsFreeToLeave(
  tx: Executor,
  chains: ChainRegistry,
  deliveries: DeliveryHandler,
  queued: SendRow[],
  at: Date,
): Promise<SendRow[]> {
  if (queued.length === 0) return queued;
  const customers = await sendCustomers(
    tx,
    queued.map((send) => send.id),
  );
  const { holdOf } = await holdsAtSend(tx, [...new Set(customers.values())]);
  const free: SendRow[] = [];
  for (const send of queued) {
    const hold = holdOf({ customerId: customers.get(send.id)! });
    if (hold.state === 'FREE') free.push(send);
    else if (hold.state === 'HELD') await holdSend(tx, send.id, at);
    else await refuse(tx, chains, deliveries, send, at);
  }
  return free;
}

/**
 * A decided case of a customer or its party (under the customer's row lock): the sends it held are
 * refused (CONFIRMED) or queued again (CLEARED; the signer looks at every other hold before signing).
 * An account holder's case concerns payouts to that account only.
 */
export async function decideHeldSends(
  tx: Executor,
  chains: ChainRegistry,
  deliveries: DeliveryHandler,
  decided: Pick<DecidedCase, 'subject_type' | 'customer_id' | 'status'>,
  at: Date,
): Promise<void> {
  if (decided.subject_type !== 'CUSTOMER' && decided.subject_type !== 'ASSOCIATED_PARTY') return;
  for (const send of await lockHeldSendsOf(tx, decided.customer_id)) {
    if (decided.status === 'CONFIRMED') await refuse(tx, chains, deliveries, send, at);
    else await releaseHeldSend(tx, send.id, at);
  }
}
