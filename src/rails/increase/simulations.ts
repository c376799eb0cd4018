/**
 * Increase's sandbox simulation routes (https://increase.com/documentation/sandbox), for a Ponte sandbox
 * pointed at Increase's own sandbox: what its sandbox routes (a deposit to an account, a payout's return)
 * ask the bank to make happen. Production never calls these; Increase refuses them outside its sandbox.
 */
import { toIncreaseAmount } from './amounts.ts';
import type { AchReturnReason } from './return-codes.ts';
import { type IncreaseClientOptions, increaseSdk } from './sdk.ts';

export type IncreaseSimulations = ReturnType<typeof createIncreaseSimulations>;

export function createIncreaseSimulations(options: IncreaseClientOptions) {
  const sdk = increaseSdk(options);
  return {
    /** An ACH credit from another bank to the account number (POST /simulations/inbound_ach_transfers). */
    inboundAch(accountNumberId: string, cents: bigint, companyName?: string) {
      return sdk.simulations.inboundACHTransfers.create({
        account_number_id: accountNumberId,
        amount: toIncreaseAmount(cents),
        ...(companyName ? { company_name: companyName } : {}),
      });
    },
    /** A wire from another bank to the account number (POST /simulations/inbound_wire_transfers). */
    inboundWire(accountNumberId: string, cents: bigint, debtorName?: string) {
      return sdk.simulations.inboundWireTransfers.create({
        account_number_id: accountNumberId,
        amount: toIncreaseAmount(cents),
        ...(debtorName ? { debtor_name: debtorName } : {}),
      });
    },
    /** The Federal Reserve settles an ACH transfer Ponte sent. */
    settleAch(achTransferId: string) {
      return sdk.simulations.achTransfers.settle(achTransferId, {});
    },
    /** The receiving bank returns an ACH transfer Ponte sent, with a Nacha reason. */
    returnAch(achTransferId: string, reason: AchReturnReason) {
      return sdk.simulations.achTransfers.return(achTransferId, { reason });
    },
    /** The Federal Reserve accepts a wire Ponte sent. */
    submitWire(wireTransferId: string) {
      return sdk.simulations.wireTransfers.submit(wireTransferId);
    },
  };
}
