/**
 * Deterministic, distinct and valid Brazilian tax ids for seeded data, in their stored (punctuated)
 * form. Each one is checked with the service's own validator, so a seeded row is one the API could
 * have written.
 */
import { normalizeCnpj, normalizeCpf } from '../src/lib/tax-id.ts';

function checkDigit(digits: number[], weights: number[]): number {
  const sum = digits.reduce((acc, digit, i) => acc + digit * weights[i]!, 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

const toDigits = (value: number, length: number) => String(value).padStart(length, '0').split('').map(Number);

/** The n-th CNPJ of a series (n from 0): a distinct 8-digit root, head office branch 0001. */
export function nthCnpj(n: number): string {
  const base = [...toDigits(10_000_000 + n * 7_919, 8), 0, 0, 0, 1];
  const first = checkDigit(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit([...base, first], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const formatted = normalizeCnpj([...base, first, second].join(''));
  if (!formatted) throw new Error(`generated an invalid CNPJ for ${n}`);
  return formatted;
}

/** The n-th CPF (n from 0) of series 0 or 1; the two series never meet. */
export function nthCpf(n: number, series: 0 | 1 = 0): string {
  const base = toDigits(100_000_000 + series * 400_000_000 + n * 7_927, 9);
  const first = checkDigit(base, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit([...base, first], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const formatted = normalizeCpf([...base, first, second].join(''));
  if (!formatted) throw new Error(`generated an invalid CPF for ${n}`);
  return formatted;
}
