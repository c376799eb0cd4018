/**
 * Brazilian tax identifiers. CPF (individuals) and CNPJ (businesses, including the alphanumeric CNPJ
 * the Receita Federal issues from 2026) are checked by their check digits with `cpf-cnpj-validator`
 * and returned in their punctuated form.
 */
import { cnpj, cpf } from 'cpf-cnpj-validator';

export type TaxIdKind = 'CPF' | 'CNPJ';

const stripCpf = (value: string) => value.replace(/[.\-\s]/g, '');
const stripCnpj = (value: string) => value.replace(/[.\-/\s]/g, '').toUpperCase();

/** A valid CPF formatted as 123.456.789-09, or null. Accepts digits with or without punctuation. */
export function normalizeCpf(value: string): string | null {
  const raw = stripCpf(value);
  if (!/^\d{11}$/.test(raw) || !cpf.isValid(raw)) return null;
  return cpf.format(raw);
}

/** A valid CNPJ (numeric or alphanumeric) formatted as 12.345.678/0001-95, or null. */
export function normalizeCnpj(value: string): string | null {
  const raw = stripCnpj(value);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(raw) || !cnpj.isValid(raw)) return null;
  return cnpj.format(raw);
}
