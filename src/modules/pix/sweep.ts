/**
 * The reconciliation sweep: nothing is lost when notifications are. Every `reconcileEveryMs`, one
 * process per environment (claimed with a lease in `pix_sweeps`) lists what the PSP received (`GET
 * /pix?inicio&fim`, every page) and sent (Efí's `GET /v2/gn/pix/enviados`) since the last complete
 * sweep, with an overlap, and hands whatever Ponte has not recorded to the same handlers a confirmed
 * notification goes to, so each item applies once however often it is seen. The listing is read with
 * no database connection held. A sweep that could not read every page leaves its window to the next one.
 */
import type { Environment } from '../../lib/environment.ts';
import type { ReceivedPix, SendState } from '../../rails/pix/rail.ts';
import type { PixHandlers, PixRails } from '../../rails/pix/registry.ts';
import type { PixIntakeDeps } from './dispatch.ts';
import { claimSweep, endSweep, recordApplyFailure, recordedDeposits } from './sweep-repo.ts';

/** How far back each sweep reaches into the previous one's window (late listings, clock skew). */
export const SWEEP_OVERLAP_MS = 10 * 60_000;
/** The first sweep of an environment reaches back this far. */
const FIRST_WINDOW_MS = 24 * 60 * 60_000;
/** A sweep that could not finish is tried again this soon. */
const RETRY_MS = 5_000;

export type SweepResult = { complete: boolean; calls: number; applied: number; seen: number };

/**
 * Hands what a sweep listed to the intake's handlers: each received PIX not recorded yet (or carrying a
 * refund's result), and each send. A failure is logged and kept for operations, and leaves the sweep
 * incomplete, so that the next one tries again.
 */
async function applySwept(
  deps: PixIntakeDeps & { pix: PixRails },
  handlers: PixHandlers,
  environment: Environment,
  received: ReceivedPix[],
  sent: SendState[],
): Promise<{ applied: number; error: string | null }> {
  const { db, clock, pix } = deps;
  let applied = 0;
  let error: string | null = null;
  const recorded = await recordedDeposits(
    db,
    received.map((item) => item.endToEndId),
  );
  for (const item of received) {
    // refunds' results ride on the PIX they give back; a recorded PIX is handed over again only then
    if (recorded.has(item.endToEndId) && item.refunds.every((r) => r.status === 'EM_PROCESSAMENTO')) continue;
    try {
      await handlers.received(environment, item);
      if (!recorded.has(item.endToEndId)) applied++;
    } catch (failure) {
      error = (failure as Error).message;
      const about = { environment, endToEndId: item.endToEndId, txid: item.txid ?? undefined };
      pix.log.warn({ ...about, reason: error }, 'swept PIX not applied; the next sweep tries it again');
      await recordApplyFailure(db, environment, 'sweep', item.payload, error, clock()).catch((e: Error) =>
        pix.log.warn({ ...about, reason: e.message }, 'swept PIX failure not recorded'),
      );
    }
  }
  for (const item of sent) {
    try {
      await handlers.sent(environment, item);
    } catch (failure) {
      error = (failure as Error).message;
      const about = { environment, sendId: item.sendId };
      pix.log.warn({ ...about, reason: error }, 'swept PIX send not applied; the next sweep tries it again');
      await recordApplyFailure(db, environment, 'sweep', { idEnvio: item.sendId }, error, clock()).catch(
        (e: Error) => pix.log.warn({ ...about, reason: e.message }, 'swept PIX send failure not recorded'),
      );
    }
  }
  return { applied, error };
}

export async function sweepEnvironment(
  deps: PixIntakeDeps & { pix: PixRails },
  environment: Environment,
): Promise<SweepResult | null> {
  const { db, clock, pix } = deps;
  const rail = pix.psp(environment);
  const handlers = pix.handlers();
  const config = pix.config(environment);
  if (!rail || !handlers || !config) return null;
  const leaseMs = Math.max(config.reconcileEveryMs, 5 * 60_000);
  const started = clock();
  const claim = await db.transaction((tx) => claimSweep(tx, environment, started, leaseMs));
  if (!claim) return null;
  const from = new Date((claim.sweptTo?.getTime() ?? started.getTime() - FIRST_WINDOW_MS) - SWEEP_OVERLAP_MS);
  const to = started;
  const received = await rail.listReceived(from, to);
  const sent = await rail.listSent(from, to);
  const { applied, error } = await applySwept(deps, handlers, environment, received.items, sent.items);
  const complete = received.complete && sent.complete && error === null;
  const now = clock();
  await db.transaction((tx) =>
    endSweep(tx, environment, {
      complete,
      from,
      to,
      now,
      nextAt: new Date(
        now.getTime() + (complete ? config.reconcileEveryMs : Math.min(RETRY_MS, config.reconcileEveryMs)),
      ),
      calls: received.calls + sent.calls,
      items: received.items.length + sent.items.length,
      applied,
      error: complete ? null : (error ?? 'the PSP listing could not be read completely'),
    }),
  );
  return {
    complete,
    calls: received.calls + sent.calls,
    applied,
    seen: received.items.length + sent.items.length,
  };
}

/** Worker: the due sweeps of every environment with a PSP. */
export async function reconcilePix(deps: PixIntakeDeps & { pix: PixRails }): Promise<number> {
  for (const environment of ['production', 'sandbox'] as const) await sweepEnvironment(deps, environment);
  // a sweep's next one is due a period later (in the database): the loop need not come back at once
  return 0;
}
