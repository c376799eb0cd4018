import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scrubSecrets } from '../../src/http/logger.ts';

describe('log scrubbing', () => {
  it('removes tax ids and keys from messages and string fields', () => {
    const line = JSON.stringify({
      msg: 'customer 529.982.247-25 and 52998224725 and 12.ABC.345/01DE-35',
      key: 'sk_live_abcdefghijklmnopqrstuvwxyz0123456789AB',
    });
    const scrubbed = scrubSecrets(line);
    expect(scrubbed).not.toMatch(/529\.982|52998224725|12\.ABC|abcdefghijkl/);
    expect(() => JSON.parse(scrubbed)).not.toThrow();
  });

  it('never breaks a JSON log line: numbers are left as they are', () => {
    fc.assert(
      fc.property(
        fc.record({
          time: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
          responseTime: fc.double({ min: 0, max: 1e12, noNaN: true, noDefaultInfinity: true }),
          count: fc.bigInt({ min: 0n, max: 10n ** 15n }).map(Number),
        }),
        (fields) => {
          const line = JSON.stringify({ level: 30, ...fields, msg: 'request completed' });
          expect(JSON.parse(scrubSecrets(line))).toEqual(JSON.parse(line));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('keeps the line that failed before: a long response time', () => {
    const line = '{"level":30,"responseTime":12345678901.234567,"msg":"request completed"}';
    expect(scrubSecrets(line)).toBe(line);
  });

  it('scrubs tax ids in one pass as the CPF pattern then the CNPJ pattern did', () => {
    const cpf = /(?<![\w./:-])\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?![\w/-]|\.\d)/g;
    const cnpj = /(?<![\w./:-])[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}\/?[0-9A-Z]{4}-?\d{2}(?![\w/-]|\.\d)/g;
    // mostly digits, so that tax-id shapes (and near misses) come up often
    const piece = fc.oneof(
      { arbitrary: fc.constantFrom('5', '2', '9', '0', '1', '7'), weight: 8 },
      { arbitrary: fc.constantFrom('A', 'Z', 'b', '.', '-', '/', ' ', '"', ':'), weight: 2 },
    );
    fc.assert(
      fc.property(fc.string({ unit: piece, maxLength: 40 }), (text) => {
        const before = text.replace(cpf, '[redacted-tax-id]').replace(cnpj, '[redacted-tax-id]');
        expect(scrubSecrets(text)).toBe(before);
      }),
      { numRuns: 5000 },
    );
  });
});
