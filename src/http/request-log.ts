/**
 * Hands each authenticated public API request to the request log once the answer is sent: method, route
 * path (no query string), status, latency, request id, the key's id and the idempotency key, the problem
 * body of a failure, and references to the request and response bodies. Nothing is copied, parsed or
 * redacted here: the recorder redacts bodies when it writes a batch, after the answers have gone. The
 * Authorization header is never handed on. The recorder is injected.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../core/clock.ts';
import type { Environment } from '../lib/environment.ts';
import { IDEMPOTENCY_HEADER } from './idempotency.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The answer's payload when it was text (JSON), for the request log. */
    sentBody?: string;
  }
}

/** What the request log keeps of one request, and the recorder it is handed to. */
export type RequestLogEntry = {
  projectId: string;
  environment: Environment;
  apiKeyId: string | null;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  requestId: string;
  problem: unknown;
  /** The idempotency key the request carried, as sent (bounded), or null. */
  idempotencyKey: string | null;
  /** The parsed request body as the handler saw it (not yet redacted), or undefined. */
  requestBody: unknown;
  /** The response payload as sent (not yet redacted), or undefined when it was not text. */
  responseBody: string | undefined;
  at: Date;
};

export type RequestRecorder = {
  record(entry: RequestLogEntry): void;
  flush(): Promise<void>;
  close(): Promise<void>;
};

const MAX_PROBLEM_BYTES = 4_096;
const MAX_IDEMPOTENCY_KEY = 255;

const idempotencyKeyOf = (header: string | string[] | undefined): string | null =>
  typeof header === 'string' && header.length > 0 ? header.slice(0, MAX_IDEMPOTENCY_KEY) : null;

function parseProblem(payload: string | undefined): unknown {
  if (!payload || payload.length > MAX_PROBLEM_BYTES) return null;
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}

export function registerRequestLog(
  app: FastifyInstance,
  environment: Environment,
  recorder: RequestRecorder,
  clock: Clock,
) {
  // Callback hooks: these run on every request and never wait, so they skip a promise each.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (typeof payload === 'string') request.sentBody = payload;
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    done();
    if (!request.tenant) return;
    recorder.record({
      projectId: request.tenant.projectId,
      environment,
      apiKeyId: request.apiKeyId || null,
      method: request.method,
      path: request.url.split('?')[0]!.slice(0, 512),
      status: reply.statusCode,
      latencyMs: Math.max(0, Math.round(reply.elapsedTime)),
      requestId: request.id,
      problem: reply.statusCode >= 400 ? parseProblem(request.sentBody) : null,
      idempotencyKey: idempotencyKeyOf(request.headers[IDEMPOTENCY_HEADER]),
      requestBody: request.body,
      responseBody: request.sentBody,
      at: clock(),
    });
  });
}
