/**
 * Ponte's side of Increase's API (https://increase.com/documentation/api), through Increase's official
 * TypeScript SDK (npm `increase`): account numbers under Ponte's account, inbound ACH and wire transfers,
 * ACH and wire transfers out, events. Every call that creates something carries an idempotency key
 * (https://increase.com/documentation/idempotency-keys), so a call repeated after a crash or a lost answer
 * creates nothing twice; `…ByIdempotencyKey` finds what an unanswered call created.
 */
import type Increase from 'increase';
import { type IncreaseAmount, toIncreaseAmount } from './amounts.ts';
import { type IncreaseClientOptions, increaseSdk } from './sdk.ts';

export type { IncreaseClientOptions } from './sdk.ts';

import { unwrapIncreaseWebhook } from './webhooks.ts';

export type AccountNumber = Increase.AccountNumber;
export type InboundAchTransfer = Increase.InboundACHTransfer;
export type InboundWireTransfer = Increase.InboundWireTransfer;
export type AchTransfer = Increase.ACHTransfer;
export type WireTransfer = Increase.WireTransfer;
export type IncreaseEvent = Increase.Event;

/** Why Ponte gives an inbound ACH credit back (the reasons Increase allows for a credit). */
export type InboundAchReturnReason = Increase.InboundACHTransferTransferReturnParams['reason'];

export type AchPayout = {
  amount: IncreaseAmount;
  routingNumber: string;
  accountNumber: string;
  funding: 'checking' | 'savings';
  /**
   * Who holds the receiving account: a consumer's is credited as a PPD entry, a company's as CCD (Nacha's
   * Standard Entry Class codes; the SDK's `standard_entry_class_code`, whose default is CCD).
   */
  holder: 'individual' | 'business';
  /** The receiver as the receiving bank shows them (NACHA's Individual Name field, 22 characters). */
  individualName: string;
  /** What the receiver's statement says (NACHA's Company Entry Description, 10 characters). */
  statementDescriptor: string;
  idempotencyKey: string;
};

export type WirePayout = {
  amount: IncreaseAmount;
  routingNumber: string;
  accountNumber: string;
  creditorName: string;
  /** Up to three unstructured lines of the creditor's address. */
  creditorAddress: [string, ...string[]] | undefined;
  message: string;
  idempotencyKey: string;
};

export type IncreaseBank = ReturnType<typeof createIncreaseClient>;

async function first<T>(page: AsyncIterable<T>): Promise<T | undefined> {
  for await (const item of page) return item;
  return undefined;
}

export function createIncreaseClient(options: IncreaseClientOptions) {
  const sdk = increaseSdk(options);
  const accountId = options.accountId;

  return {
    /** One account number per customer account, under Ponte's account (POST /account_numbers). */
    openAccountNumber(input: { name: string; idempotencyKey: string }): Promise<AccountNumber> {
      return sdk.accountNumbers.create(
        { account_id: accountId, name: input.name, inbound_ach: { debit_status: 'blocked' } },
        { idempotencyKey: input.idempotencyKey },
      );
    },

    accountNumber(id: string): Promise<AccountNumber> {
      return sdk.accountNumbers.retrieve(id);
    },

    /**
     * Stops payments to an account number (PATCH /account_numbers/{id}, `status: disabled`): Increase
     * declines what arrives for it afterwards.
     */
    disableAccountNumber(id: string): Promise<AccountNumber> {
      return sdk.accountNumbers.update(id, { status: 'disabled' });
    },

    inboundAchTransfer(id: string): Promise<InboundAchTransfer> {
      return sdk.inboundACHTransfers.retrieve(id);
    },

    inboundWireTransfer(id: string): Promise<InboundWireTransfer> {
      return sdk.inboundWireTransfers.retrieve(id);
    },

    /** Inbound ACH transfers to Ponte's account created after `after`, oldest page first, every page. */
    inboundAchTransfersSince(after: Date): AsyncIterable<InboundAchTransfer> {
      return sdk.inboundACHTransfers.list({
        account_id: accountId,
        created_at: { after: after.toISOString() },
        limit: 100,
      });
    },

    inboundWireTransfersSince(after: Date): AsyncIterable<InboundWireTransfer> {
      return sdk.inboundWireTransfers.list({
        account_id: accountId,
        created_at: { after: after.toISOString() },
        limit: 100,
      });
    },

    /** Gives a pending inbound ACH transfer back to its originator (Nacha return, e.g. R23). */
    returnInboundAch(id: string, reason: InboundAchReturnReason): Promise<InboundAchTransfer> {
      return sdk.inboundACHTransfers.transferReturn(id, { reason });
    },

    /** Sends an inbound wire back (Increase reverses it to the originating bank). */
    reverseInboundWire(
      id: string,
      reason: Increase.InboundWireTransferReverseParams['reason'],
    ): Promise<InboundWireTransfer> {
      return sdk.inboundWireTransfers.reverse(id, { reason });
    },

    /** POST /ach_transfers: a credit from Ponte's account to a US bank account. */
    payAch(payout: AchPayout): Promise<AchTransfer> {
      return sdk.achTransfers.create(
        {
          account_id: accountId,
          amount: toIncreaseAmount(payout.amount),
          routing_number: payout.routingNumber,
          account_number: payout.accountNumber,
          funding: payout.funding,
          destination_account_holder: payout.holder,
          standard_entry_class_code:
            payout.holder === 'individual' ? 'prearranged_payments_and_deposit' : 'corporate_credit_or_debit',
          individual_name: payout.individualName.slice(0, 22),
          statement_descriptor: payout.statementDescriptor.slice(0, 10),
        },
        { idempotencyKey: payout.idempotencyKey },
      );
    },

    /** POST /wire_transfers: a Fedwire transfer from Ponte's account. */
    payWire(payout: WirePayout): Promise<WireTransfer> {
      const [line1, line2, line3] = payout.creditorAddress ?? [];
      return sdk.wireTransfers.create(
        {
          account_id: accountId,
          amount: toIncreaseAmount(payout.amount),
          routing_number: payout.routingNumber,
          account_number: payout.accountNumber,
          creditor: {
            name: payout.creditorName,
            ...(line1
              ? {
                  address: {
                    unstructured: { line1, ...(line2 ? { line2 } : {}), ...(line3 ? { line3 } : {}) },
                  },
                }
              : {}),
          },
          remittance: { category: 'unstructured', unstructured: { message: payout.message } },
        },
        { idempotencyKey: payout.idempotencyKey },
      );
    },

    achTransfer(id: string): Promise<AchTransfer> {
      return sdk.achTransfers.retrieve(id);
    },

    wireTransfer(id: string): Promise<WireTransfer> {
      return sdk.wireTransfers.retrieve(id);
    },

    /** ACH transfers from Ponte's account created after `after` in a status, every page. */
    achTransfersSince(after: Date, status: 'returned'): AsyncIterable<AchTransfer> {
      return sdk.achTransfers.list({
        account_id: accountId,
        created_at: { after: after.toISOString() },
        status: { in: [status] },
        limit: 100,
      });
    },

    /** Wire transfers from Ponte's account created after `after` in a status, every page. */
    wireTransfersSince(after: Date, status: 'reversed'): AsyncIterable<WireTransfer> {
      return sdk.wireTransfers.list({
        account_id: accountId,
        created_at: { after: after.toISOString() },
        status: { in: [status] },
        limit: 100,
      });
    },

    /** The ACH transfer a call with this idempotency key created, if it reached Increase. */
    achTransferByIdempotencyKey(key: string): Promise<AchTransfer | undefined> {
      return first(sdk.achTransfers.list({ idempotency_key: key, limit: 1 }));
    },

    wireTransferByIdempotencyKey(key: string): Promise<WireTransfer | undefined> {
      return first(sdk.wireTransfers.list({ idempotency_key: key, limit: 1 }));
    },

    /** What Increase knows of a bank by its ABA routing number (GET /routing_numbers); undefined if none. */
    routingNumber(routingNumber: string): Promise<Increase.RoutingNumberListResponse | undefined> {
      return first(sdk.routingNumbers.list({ routing_number: routingNumber, limit: 1 }));
    },

    event(id: string): Promise<IncreaseEvent> {
      return sdk.events.retrieve(id);
    },

    eventsSince(after: Date): AsyncIterable<IncreaseEvent> {
      return sdk.events.list({ created_at: { after: after.toISOString() }, limit: 100 });
    },

    /** A webhook's event once its signature checks out; throws InvalidIncreaseWebhook otherwise. */
    unwrapWebhook(body: string, headers: Record<string, string | string[] | undefined>) {
      return unwrapIncreaseWebhook(sdk, body, headers);
    },
  };
}
