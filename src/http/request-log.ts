/**
 * Hands each authenticated public API request's metadata to the request log once the answer is sent:
 * method, route path (no query string), status, latency and request id, plus the problem body of a
 * failure. Bodies of successful requests are never kept. The recorder is injected.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../core/clock.ts';
import type { Environment } from '../lib/environment.ts';

declare module 'fastify' {
  interface FastifyRequest {
    problemBody?: string;
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
  at: Date;
};

export type RequestRecorder = {
  record(entry: RequestLogEntry): void;
  flush(): Promise<void>;
  close(): Promise<void>;
};

const MAX_PROBLEM_BYTES = 4_096;

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
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') request.problemBody = payload;
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
      problem: reply.statusCode >= 400 ? parseProblem(request.problemBody) : null,
      at: clock(),
    });
  });
}
