/**
 * Records public API requests for the partner's request log without slowing them: entries are queued in
 * memory and written in one multi-row insert per batch, after the answer has gone. A lost batch (the
 * database down, a crash) only loses log lines, never a request.
 */
import { newId } from '../../core/ids.ts';
import type { Database } from '../../db/types.ts';
import type { RequestLogEntry, RequestRecorder } from '../../http/request-log.ts';
import { emptyBatch, insertEntries } from './repo.ts';

export type { RequestLogEntry, RequestRecorder };

/** Entries that start a write at once rather than at the next interval (one statement per batch). */
const MAX_BATCH = 2_000;
/** Past this many waiting entries, new ones are dropped rather than grow memory without bound. */
const MAX_QUEUED = 10_000;

export function createRequestRecorder(
  db: Database,
  options: { intervalMs: number; onError: (error: unknown) => void },
): RequestRecorder {
  let queue = emptyBatch();
  let draining: Promise<void> | undefined;

  async function drain(): Promise<void> {
    while (queue.id.length > 0) {
      const batch = queue;
      queue = emptyBatch();
      await insertEntries(db, batch).catch(options.onError);
    }
  }

  /** Writes every queued entry; one writer at a time, so batches go out in order and never overlap. */
  async function flush(): Promise<void> {
    while (queue.id.length > 0 || draining) {
      draining ??= drain().finally(() => {
        draining = undefined;
      });
      await draining;
    }
  }

  const timer = setInterval(() => void flush(), options.intervalMs);
  timer.unref();

  return {
    record(entry) {
      const size = queue.id.length;
      if (size >= MAX_QUEUED) return;
      queue.id.push(newId());
      queue.projectId.push(entry.projectId);
      queue.environment.push(entry.environment);
      queue.apiKeyId.push(entry.apiKeyId);
      queue.method.push(entry.method);
      queue.path.push(entry.path);
      queue.status.push(entry.status);
      queue.latencyMs.push(entry.latencyMs);
      queue.requestId.push(entry.requestId);
      queue.problem.push(entry.problem === null ? null : JSON.stringify(entry.problem));
      queue.createdAt.push(entry.at.toISOString());
      if (size + 1 >= MAX_BATCH && !draining) void flush();
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
