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

const MAX_BATCH = 500;
/** Past this many waiting entries, new ones are dropped rather than grow memory without bound. */
const MAX_QUEUED = 10_000;

export function createRequestRecorder(
  db: Database,
  options: { intervalMs: number; onError: (error: unknown) => void },
): RequestRecorder {
  let queue: RequestLogRow[] = [];
  let writing: Promise<void> = Promise.resolve();

  async function flush(): Promise<void> {
    await writing;
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(MAX_BATCH);
      writing = insertEntries(db, batch).catch(options.onError);
      await writing;
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
      if (queue.length >= MAX_BATCH) void flush();
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
