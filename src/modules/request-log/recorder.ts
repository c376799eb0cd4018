/**
 * Records public API requests for the partner's request log without slowing them: entries are queued in
 * memory and written in one multi-row insert per batch, after the answer has gone. A lost batch (the
 * database down, a crash) only loses log lines, never a request.
 *
 * A batch is what gathered over the interval, or a full batch when one gathers sooner. Entries that arrive
 * while a batch is being written wait for the next one: writing them as soon as the previous insert
 * returned made a steady stream of requests into a stream of small inserts, each a statement and a commit
 * of its own (about 30 rows each at 6,500 requests a second).
 *
 * Bodies are queued as references and redacted (src/http/redact-body.ts) only when their batch is written,
 * a slice at a time so that a large batch never holds the event loop for long. The text queued is bounded:
 * past MAX_QUEUED_BODY_CHARS, new entries are queued without their bodies.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { newId } from '../../core/ids.ts';
import type { Database } from '../../db/types.ts';
import { MAX_PARSED_BODY, redactBodyText, redactParsedBody } from '../../http/redact-body.ts';
import type { RequestLogEntry, RequestRecorder } from '../../http/request-log.ts';
import { emptyBatch, insertEntries, type RedactedBodies, type RequestLogBatch } from './repo.ts';

export type { RequestLogEntry, RequestRecorder };

/** Entries that start a write at once rather than at the next interval (one statement per batch). */
const MAX_BATCH = 2_000;
/** Past this many waiting entries, new ones are dropped rather than grow memory without bound. */
const MAX_QUEUED = 10_000;
/** Past this many characters of response bodies waiting, new entries are queued without their bodies. */
const MAX_QUEUED_BODY_CHARS = 32 * 1024 * 1024;
/** Entries redacted between two turns of the event loop. */
const REDACT_SLICE = 200;
const NOT_KEPT = '[not kept: the request log was busy]';

/** Redacts a batch's bodies, a slice per turn of the event loop. */
async function redactBodies(batch: RequestLogBatch): Promise<RedactedBodies> {
  const request: (string | null)[] = [];
  const response: (string | null)[] = [];
  for (let i = 0; i < batch.id.length; i++) {
    if (i > 0 && i % REDACT_SLICE === 0) await nextTurn();
    const sent = batch.responseBody[i];
    request.push(batch.requestBody[i] === NOT_KEPT ? NOT_KEPT : redactParsedBody(batch.requestBody[i]));
    response.push(sent === NOT_KEPT ? NOT_KEPT : redactBodyText(sent));
  }
  return { request, response };
}

export function createRequestRecorder(
  db: Database,
  options: { intervalMs: number; onError: (error: unknown) => void },
): RequestRecorder {
  let queue = emptyBatch();
  let queuedBodyChars = 0;
  let writing: Promise<void> | undefined;

  /**
   * Writes the entries queued now as one batch; one writer at a time, so batches go out in order and never
   * overlap. Returns the write under way when there is one.
   */
  function write(): Promise<void> {
    if (writing) return writing;
    const batch = queue;
    if (batch.id.length === 0) return Promise.resolve();
    queue = emptyBatch();
    queuedBodyChars = 0;
    writing = redactBodies(batch)
      .then((bodies) => insertEntries(db, batch, bodies))
      .catch(options.onError)
      .finally(() => {
        writing = undefined;
        // a full batch gathered during this write goes at once
        if (queue.id.length >= MAX_BATCH) void write();
      });
    return writing;
  }

  /** Writes every queued entry, including those queued while it waits. */
  async function flush(): Promise<void> {
    while (queue.id.length > 0 || writing) await write();
  }

  const timer = setInterval(() => void write(), options.intervalMs);
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
      queue.idempotencyKey.push(entry.idempotencyKey);
      const sent = entry.responseBody;
      const chars = sent === undefined ? 0 : Math.min(sent.length, MAX_PARSED_BODY);
      if (queuedBodyChars + chars > MAX_QUEUED_BODY_CHARS) {
        queue.requestBody.push(NOT_KEPT);
        queue.responseBody.push(NOT_KEPT);
      } else {
        queuedBodyChars += chars;
        queue.requestBody.push(entry.requestBody);
        queue.responseBody.push(sent);
      }
      if (size + 1 >= MAX_BATCH) void write();
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
