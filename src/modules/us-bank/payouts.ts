/**
 * What Increase says of the payouts Ponte sent, handed to the off-ramp (`bankPayoutReported`): a webhook
 * about an ACH or wire transfer is read back and reported; the sweep lists the transfers the receiving
 * banks gave back lately, so a return whose webhook was lost still reaches a payout the workers no longer
 * ask about (it was settled). The off-ramp applies each state once, however often it is reported.
 */
import type { Environment } from '../../lib/environment.ts';
import { returnedPayoutsSince, type SentPayout } from '../../rails/increase/payouts.ts';
import { answerOf } from '../../rails/usd/increase-payout.ts';
import type { IntakeDeps } from './intake.ts';

/**
 * How far back the sweep looks for returns: Nacha lets a receiver return an unauthorized credit for 60
 * days (Nacha Operating Rules, Article Three, 3.13; most returns come within two banking days).
 */
const RETURN_WINDOW_MS = 60 * 24 * 3600_000;

export function reportPayout(
  deps: IntakeDeps,
  environment: Environment,
  key: string,
  payout: SentPayout,
): Promise<void> {
  return deps.payoutReported(environment, key, answerOf(payout.outcome));
}

/** Reports every payout returned or reversed in the return window; how many it saw. */
export async function sweepReturnedPayouts(deps: IntakeDeps, environment: Environment): Promise<number> {
  const from = new Date(deps.clock().getTime() - RETURN_WINDOW_MS);
  let seen = 0;
  for await (const { key, payout } of returnedPayoutsSince(deps.bank, from)) {
    seen += 1;
    await reportPayout(deps, environment, key, payout);
  }
  return seen;
}
