/**
 * US bank account identifiers, as an ACH or wire payout names its receiver:
 * - the ABA routing transit number: nine digits whose first two name a Federal Reserve district (01–12), a
 *   thrift institution (21–32), an electronic-only number (61–72) or traveler's cheques (80), and whose
 *   ninth is a check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a multiple of 10 (the ABA's
 *   "Routing Number Policy", https://www.aba.com/about-us/routing-number, and the Federal Reserve's
 *   E-Payments Routing Directory, https://www.frbservices.org/EPaymentsDirectory/);
 * - the account number at that bank: up to 17 letters or digits for ACH, the width of Nacha's DFI Account
 *   Number field (Nacha Operating Rules, Entry Detail Record, field 7), up to 34 for a wire (Fedwire's
 *   beneficiary identifier); spaces and hyphens as people write them are removed;
 * - the account type: CHECKING or SAVINGS (Nacha's transaction codes 22 and 32 for credits).
 */

export const US_ACCOUNT_TYPES = ['CHECKING', 'SAVINGS'] as const;
export type UsAccountType = (typeof US_ACCOUNT_TYPES)[number];
export type UsRail = 'ACH' | 'WIRE';

const ROUTING_PREFIXES: readonly [number, number][] = [
  [1, 12],
  [21, 32],
  [61, 72],
  [80, 80],
];
const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;
const ACCOUNT_MAX_LENGTH: Record<UsRail, number> = { ACH: 17, WIRE: 34 };

/** Whether the nine digits' check digit is right (the 3-7-1 weighted sum is a multiple of 10). */
export function abaChecksumHolds(routingNumber: string): boolean {
  if (!/^\d{9}$/.test(routingNumber)) return false;
  const sum = [...routingNumber].reduce(
    (total, digit, i) => total + Number(digit) * (WEIGHTS[i] as number),
    0,
  );
  return sum % 10 === 0;
}

/** Why a routing number is not a valid ABA routing transit number, or null when it is. */
export function routingNumberProblem(value: string): string | null {
  if (!/^\d{9}$/.test(value)) return 'must be an ABA routing number: 9 digits';
  const prefix = Number(value.slice(0, 2));
  if (!ROUTING_PREFIXES.some(([low, high]) => prefix >= low && prefix <= high)) {
    return 'must be an ABA routing number: its first two digits name no Federal Reserve routing symbol';
  }
  if (!abaChecksumHolds(value)) return 'must be an ABA routing number: its check digit is wrong';
  return null;
}

/** The account number without the spaces and hyphens people write in it, or null when it cannot be one. */
export function normalizeUsAccountNumber(value: string, rail: UsRail): string | null {
  const bare = value.replace(/[\s-]/g, '');
  if (bare.length === 0 || bare.length > ACCOUNT_MAX_LENGTH[rail]) return null;
  return /^[0-9A-Za-z]+$/.test(bare) ? bare.toUpperCase() : null;
}

export type UsBankIdentifier = { routingNumber: string; accountNumber: string; accountType: UsAccountType };

/** Field problems of a US identifier, located by JSON pointer under `pointer`; the canonical form when none. */
export function validateUsBankIdentifier(
  input: { routingNumber: string; accountNumber: string; accountType: UsAccountType },
  rail: UsRail,
  pointer = '/body/identifier',
):
  | { identifier: UsBankIdentifier; errors: [] }
  | { identifier: null; errors: { pointer: string; message: string }[] } {
  const errors: { pointer: string; message: string }[] = [];
  const routingNumber = input.routingNumber.trim();
  const routing = routingNumberProblem(routingNumber);
  if (routing) errors.push({ pointer: `${pointer}/routingNumber`, message: routing });
  const accountNumber = normalizeUsAccountNumber(input.accountNumber, rail);
  if (!accountNumber) {
    errors.push({
      pointer: `${pointer}/accountNumber`,
      message: `must be a US account number: letters and digits, at most ${ACCOUNT_MAX_LENGTH[rail]} for ${rail}`,
    });
  }
  if (!(US_ACCOUNT_TYPES as readonly string[]).includes(input.accountType)) {
    errors.push({ pointer: `${pointer}/accountType`, message: 'must be CHECKING or SAVINGS' });
  }
  if (errors.length > 0 || !accountNumber) return { identifier: null, errors };
  return { identifier: { routingNumber, accountNumber, accountType: input.accountType }, errors: [] };
}
