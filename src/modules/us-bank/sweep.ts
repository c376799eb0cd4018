/**
 * The sweep of Increase's inbound transfers: every ACH credit and wire created since the last complete
 * sweep (less an overlap, for a transfer Increase lists a moment late) is read and taken, so a transfer
 * whose webhook was lost is still applied, once (https://increase.com/documentation/api/inbound-ach-transfers#list).
 * The mark does not pass a transfer still PENDING: the sweep that finds it accepted takes it.
 */
import type { Environment } from '../../lib/environment.ts';
import { sweepInbound } from '../../rails/increase/inbound.ts';
import { type IntakeDeps, takeInbound } from './intake.ts';
import { recordSweep, sweptThrough } from './sweep-repo.ts';

/** How far back the first sweep of an environment reads. */
const FIRST_SWEEP_MS = 7 * 24 * 3600_000;
/** How far before the last mark each sweep starts again. */
const OVERLAP_MS = 10 * 60_000;

export type SweepReport = { seen: number; taken: number; pending: number };

export async function sweepIncrease(deps: IntakeDeps, environment: Environment): Promise<SweepReport> {
  const startedAt = deps.clock();
  const mark = await sweptThrough(deps.db, environment);
  const from = new Date((mark?.getTime() ?? startedAt.getTime() - FIRST_SWEEP_MS) - OVERLAP_MS);
  let through = startedAt;
  const report: SweepReport = { seen: 0, taken: 0, pending: 0 };
  for await (const inbound of sweepInbound(deps.bank, from)) {
    report.seen += 1;
    if (inbound.state === 'PENDING') {
      report.pending += 1;
      if (inbound.createdAt < through) through = inbound.createdAt;
      continue;
    }
    const result = await takeInbound(deps, environment, inbound);
    if (result && result.outcome !== 'DUPLICATE') report.taken += 1;
  }
  await recordSweep(deps.db, environment, through, deps.clock());
  return report;
}
