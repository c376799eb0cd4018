/**
 * Dollars out through Increase: an ACH transfer (POST /ach_transfers) or a wire (POST /wire_transfers)
 * from Ponte's account, under the payout's idempotency key. A payout tried before is looked up by that key
 * before it is sent again (https://increase.com/documentation/idempotency-keys), so it is paid once
 * whatever happened between a call and its answer. Where a transfer stands is read from the transfer
 * (outcomes.ts): an ACH is COMPLETED once settled and may be RETURNED afterwards, with its Nacha code.
 */

import type { PayoutOrder, StatusAnswer, SubmitAnswer } from '../fiat-rail.ts';
import type { IncreaseBank } from '../increase/client.ts';
import type { PayoutOutcome } from '../increase/outcomes.ts';
import { findPayout, sendPayout } from '../increase/payouts.ts';
import { achReturnText } from '../increase/return-codes.ts';
import type { UsdDestination, UsdPayoutRail } from './payout-rail.ts';

/** The statement descriptor an ACH credit carries (Nacha's Company Entry Description, 10 characters). */
const STATEMENT_DESCRIPTOR = 'PONTE';

/** What a transfer's outcome tells a flow, in the seam's terms. */
export function answerOf(outcome: PayoutOutcome): StatusAnswer {
  switch (outcome.state) {
    case 'PENDING':
      return { pending: true };
    case 'SETTLED':
      return { result: { status: 'COMPLETED' } };
    case 'REJECTED':
      return { result: { status: 'REJECTED', reason: outcome.detail } };
    case 'RETURNED':
      if (outcome.rail === 'WIRE') {
        return { result: { status: 'RETURNED', reason: 'the wire was reversed by the receiving bank' } };
      }
      return outcome.achReturn
        ? {
            result: {
              status: 'RETURNED',
              reason: achReturnText(outcome.achReturn),
              code: outcome.achReturn.nachaCode,
            },
          }
        : { result: { status: 'RETURNED', reason: 'returned by the receiving bank (no return code given)' } };
  }
}

const submitted = (answer: StatusAnswer): SubmitAnswer =>
  'pending' in answer ? { accepted: true } : (answer as SubmitAnswer);

function orderFor(order: PayoutOrder<UsdDestination>, key: string) {
  const { destination } = order;
  const message = order.memo ?? 'Ponte payout';
  if (destination.rail === 'ACH') {
    return {
      rail: 'ACH' as const,
      key,
      ach: {
        amount: order.amount,
        routingNumber: destination.routingNumber,
        accountNumber: destination.accountNumber,
        funding: destination.accountType === 'SAVINGS' ? ('savings' as const) : ('checking' as const),
        holder: destination.holderType === 'BUSINESS' ? ('business' as const) : ('individual' as const),
        individualName: destination.name,
        statementDescriptor: STATEMENT_DESCRIPTOR,
      },
    };
  }
  const { address } = destination;
  return {
    rail: 'WIRE' as const,
    key,
    wire: {
      amount: order.amount,
      routingNumber: destination.routingNumber,
      accountNumber: destination.accountNumber,
      creditorName: destination.name,
      creditorAddress: [
        address.line1,
        `${address.city}, ${address.state} ${address.postalCode}`,
        address.country,
      ] as [string, ...string[]],
      message: message.slice(0, 140),
    },
  };
}

export function increaseUsdRail(bank: IncreaseBank): UsdPayoutRail {
  return {
    currency: 'USD',
    reportsLater: true,
    async payOut(order, ref) {
      if (ref.attempts > 1) {
        // an earlier attempt may have reached Increase without its answer reaching Ponte
        const found = await findPayout(bank, order.destination.rail, ref.key).catch(() => null);
        if (found === null) return { retry: 'Increase could not be asked about an earlier attempt' };
        if (found) return submitted(answerOf(found.outcome));
      }
      const sent = await sendPayout(bank, orderFor(order, ref.key));
      switch (sent.kind) {
        case 'SENT':
          return submitted(answerOf(sent.payout.outcome));
        case 'REFUSED':
          return { result: { status: 'REJECTED', reason: `Increase refused the transfer: ${sent.detail}` } };
        case 'UNKNOWN':
          return { retry: sent.detail };
      }
    },
    async lookUp(ref) {
      try {
        const found = await findPayout(bank, ref.method ?? 'ACH', ref.key);
        return found ? answerOf(found.outcome) : { unknown: true };
      } catch (error) {
        return { retry: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
