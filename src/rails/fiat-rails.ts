/**
 * Which fiat rail serves a flow: the rail of an environment's fiat, behind the seam (fiat-rail.ts). BRL
 * over PIX: the environment's PSP when one is configured, the sandbox simulation in the sandbox without
 * one, none in production without one (on-ramps answer 503, payouts wait). USD over ACH and wire, paying
 * out: the environment's US bank (Increase) when one is configured, the sandbox's own bank in the sandbox
 * without one, none in production without one. A rail joins here, with its intake module; the flows only
 * name the seam.
 */
import type { Environment } from '../lib/environment.ts';
import { createIncreaseClient } from './increase/client.ts';
import type { IncreaseConfig } from './increase/config.ts';
import { achReturnReasonOf, achReturnText, type NachaReturnCode } from './increase/return-codes.ts';
import { type BrlRail, pspPixRail, type SandboxAccount, sandboxPixRail } from './pix/fiat.ts';
import { derivedPixId } from './pix/rail.ts';
import type { PixRails } from './pix/registry.ts';
import { increaseUsdRail } from './usd/increase-payout.ts';
import type { UsdPayoutRail } from './usd/payout-rail.ts';
import { sandboxUsdRail } from './usd/sandbox-payout.ts';

export type { BrlRail, PixInstructions } from './pix/fiat.ts';
export type { PixDestination } from './pix/payout-rail.ts';
export type { UsdDestination, UsdPayoutRail } from './usd/payout-rail.ts';
export { usdPayoutKey } from './usd/payout-rail.ts';

/**
 * The rails a process opened, as a flow sees them (the runtime opens them once and hands them down): the
 * rail of an environment (`brlRailOf`), and where rail work that runs on after an answer is tracked.
 */
export type FiatRails = Pick<PixRails, 'psp' | 'track' | 'log'>;

/** Where the sandbox's local collections pay into, unless configured (README: PONTE_PIX_KEY). */
const SANDBOX_ACCOUNT: SandboxAccount = {
  pixKey: undefined,
  merchantName: 'PONTE',
  merchantCity: 'SAO PAULO',
};

/** The BRL rail of an environment, or null: production has no PSP (PONTE_PIX_PSP). */
export function brlRailOf(
  rails: FiatRails,
  environment: Environment,
  sandbox: SandboxAccount = SANDBOX_ACCOUNT,
): BrlRail | null {
  const psp = rails.psp(environment);
  if (psp) return pspPixRail(psp);
  return environment === 'sandbox' ? sandboxPixRail(sandbox) : null;
}

/** The USD payout rail of an environment, or null: production has no US bank (PONTE_USD_BANK). */
export function usdRailOf(
  usdBank: Record<Environment, IncreaseConfig | undefined>,
  environment: Environment,
): UsdPayoutRail | null {
  const config = usdBank[environment];
  if (!config) return environment === 'sandbox' ? sandboxUsdRail : null;
  // a client holds no connection of its own (the SDK calls through fetch): one per use is cheap
  return increaseUsdRail(createIncreaseClient(config));
}

/** The providers configured per environment (a PSP's settings, or none). */
type ProviderConfig = { pix: Record<Environment, unknown> };

/**
 * The key Ponte gives a payment through an environment's provider, derived from an id (an off-ramp's,
 * so that a resend after a crash or a timeout is the same payment: a PSP's idEnvio or devolução id; the
 * provider assigns the payment's own id and it is recorded when it answers); null when the environment
 * has no provider, whose payments are simulated under a `simulatedPaymentId`.
 */
export function derivedPaymentKey(
  config: ProviderConfig,
  environment: Environment,
  id: string,
): string | null {
  return config.pix[environment] === undefined ? null : derivedPixId(id);
}

/** The id of a payment the sandbox simulates, in or out (a PIX end-to-end id of no real institution). */
export { sandboxEndToEndId as simulatedPaymentId } from './pix/end-to-end-id.ts';

/** Why an ACH payout came back with a Nacha code (R01, R03, …), as the rail says it; undefined if no such code. */
export function achReturnReasonText(code: string): string | undefined {
  const reason = achReturnReasonOf(code);
  return reason && achReturnText({ nachaCode: code as NachaReturnCode, reason });
}
