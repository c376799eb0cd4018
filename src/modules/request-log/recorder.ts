/**
 * Records public API requests for the partner's request log without slowing them: entries are queued in
 * memory and written in one multi-row insert per batch, after the answer has gone. A lost batch (the
 * database down, a crash) only loses log lines, never a request.
 */
import { newId } from '../../core/ids.ts';
import type { Database } from '../../db/types.ts';
import type { RequestLogEntry, RequestRecorder } from '../../http/request-log.ts';
import { insertEntries, type RequestLogRow } from './repo.ts';

export type { RequestLogEntry, RequestRecorder };

/** Entries per insert: one statement writes a whole batch, so larger batches cost less per entry. */
const MAX_BATCH = 2_000;
/** Past this many waiting entries, new ones are dropped rather than grow memory without bound. */
const MAX_QUEUED = 10_000;

export function createRequestRecorder(
  db: Database,
  options: { intervalMs: number; onError: (error: unknown) => void },
): RequestRecorder {
  let queue: RequestLogRow[] = [];
  let draining: Promise<void> | undefined;

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.length <= MAX_BATCH ? queue : queue.slice(0, MAX_BATCH);
      queue = queue.length <= MAX_BATCH ? [] : queue.slice(MAX_BATCH);
      await insertEntries(db, batch).catch(options.onError);
    }
  }

  /** Writes every queued entry; one writer at a time, so batches go out in order and never overlap. */
  async function flush(): Promise<void> {
    while (queue.length > 0 || draining) {
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
      if (queue.length >= MAX_QUEUED) return;
      queue.push({
        id: newId(),
        project_id: entry.projectId,
        environment: entry.environment,
        api_key_id: entry.apiKeyId,
        method: entry.method,
        path: entry.path,
        status: entry.status,
        latency_ms: entry.latencyMs,
        request_id: entry.requestId,
        problem: entry.problem,
        created_at: entry.at,
      });
      if (queue.length >= MAX_BATCH && !draining) void flush();
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
