import type { IncomingMessage } from 'node:http';
import { randomBase62 } from '../lib/secrets.ts';

const SAFE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's X-Request-Id when it is safe to log and echo; otherwise mints one. */
export function genRequestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SAFE.test(given) ? given : `req_${randomBase62(22)}`;
}
