/** A sanctions list as read from its published files, before it is stored as a list version. */
import type { ListedAddress } from '../addresses.ts';
import type { EntryKind } from '../matcher.ts';

export type ListSource = 'OFAC_SDN' | 'UN';

export type ParsedEntry = {
  sourceUid: string;
  kind: EntryKind;
  primaryName: string;
  aliases: { name: string; quality: string | null }[];
  programs: string[];
  /** alpha-3 codes (nationalities, citizenships, address countries) */
  countries: string[];
  /** YYYY-MM-DD, YYYY-MM or YYYY */
  birthDates: string[];
  remarks: string | null;
  addresses: ListedAddress[];
  /** What the list says beyond that, shown to the reviewer: postal addresses, titles, list dates. */
  details: Record<string, unknown>;
};

export type ParsedList = { source: ListSource; publishedAt: Date | null; entries: ParsedEntry[] };

/** A file refused whole: which file, which line, and why. */
export class ListFormatError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    reason: string,
  ) {
    super(`${file}${line === null ? '' : ` line ${line}`}: ${reason}`);
    this.name = 'ListFormatError';
  }
}

const MONTHS: Record<string, string> = {
  jan: '01',
  feb: '02',
  mar: '03',
  apr: '04',
  may: '05',
  jun: '06',
  jul: '07',
  aug: '08',
  sep: '09',
  oct: '10',
  nov: '11',
  dec: '12',
};

/**
 * A date of birth as the lists write it ("15 Jun 1965", "Jun 1965", "1965", "circa 1965", "1960 to 1962",
 * "1965-06-15"): every date it may be, YYYY-MM-DD, YYYY-MM or YYYY (a range of years: each year, up to ten).
 */
export function birthDates(text: string): string[] {
  const value = text.replace(/^(circa|approximately|about)\s+/i, '').trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m) return [value];
  m = /^(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(value);
  if (m && MONTHS[m[2]!.toLowerCase()])
    return [`${m[3]}-${MONTHS[m[2]!.toLowerCase()]}-${m[1]!.padStart(2, '0')}`];
  m = /^([A-Za-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(value);
  if (m && MONTHS[m[1]!.toLowerCase()]) return [`${m[2]}-${MONTHS[m[1]!.toLowerCase()]}`];
  m = /^(\d{4})\s*(?:to|-)\s*(\d{4})$/.exec(value);
  if (m) {
    const from = Number(m[1]);
    const to = Number(m[2]);
    if (to < from || to - from > 10) return [];
    return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
  }
  m = /^(\d{4})$/.exec(value);
  return m ? [value] : [];
}
