import type { FastifyServerOptions } from 'fastify';

/**
 * Structured logs (pino). Secrets and personal data are redacted wherever they could appear: auth
 * headers, keys, tokens, secrets and tax ids in any logged object.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        '*.key',
        '*.token',
        '*.secret',
        '*.taxId',
        '*.tax_id',
        '*.keyValue',
        'key',
        'token',
        'secret',
        'taxId',
      ],
      censor: '[redacted]',
    },
  };
}
