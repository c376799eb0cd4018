/**
 * OFAC's SDN list in its CSV release (Treasury's data specification): `sdn.csv` (ent_num, SDN_Name,
 * SDN_Type, Program, Title, Call_Sign, Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks),
 * `alt.csv` (ent_num, alt_num, alt_type, alt_name, alt_remarks), `add.csv` (ent_num, add_num, address,
 * city/state/province/postal code, country, add_remarks) and, when present, `sdn_comments.csv`
 * (ent_num, remarks continued). No header rows; "-0-" is null; the files may end with a DOS end-of-file
 * character. Dates of birth, nationalities and digital currency addresses are read from the remarks.
 */
import { parse } from 'csv-parse/sync';
import { digitalCurrencyAddresses } from '../addresses.ts';
import { countryCode } from '../countries.ts';
import { displayName } from '../normalize.ts';
import { birthDates, ListFormatError, type ParsedEntry, type ParsedList } from './types.ts';

export type OfacFiles = { sdn: string; alt: string; add: string; comments?: string | undefined };

type Row = { fields: (string | null)[]; line: number };

/** The DOS end-of-file character (Ctrl-Z) the files may end with. */
const EOF_MARK = String.fromCharCode(0x1a);

function withoutEofMark(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed.endsWith(EOF_MARK) ? trimmed.slice(0, -1) : text;
}

function rows(file: string, text: string, columns: number): Row[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(withoutEofMark(text), {
      info: true,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as typeof records;
  } catch (error) {
    const lines = (error as { lines?: number }).lines;
    throw new ListFormatError(file, lines ?? null, (error as Error).message.replace(/^[A-Za-z_]+: /, ''));
  }
  return records.map(({ record, info }) => {
    if (record.length !== columns) {
      throw new ListFormatError(file, info.lines, `expected ${columns} fields, found ${record.length}`);
    }
    return {
      line: info.lines,
      fields: record.map((field) => {
        const value = field.trim();
        return value === '-0-' || value === '' ? null : value;
      }),
    };
  });
}

function entNum(file: string, row: Row): string {
  const value = row.fields[0];
  if (!value || !/^\d+$/.test(value))
    throw new ListFormatError(file, row.line, `ent_num "${value ?? ''}" is not a number`);
  return value;
}

const KINDS: Record<string, ParsedEntry['kind']> = {
  individual: 'INDIVIDUAL',
  vessel: 'VESSEL',
  aircraft: 'AIRCRAFT',
};

/** What the remarks say of birth and nationality ("DOB 15 Jun 1965; alt. DOB 1966; nationality Iran"). */
function readRemarks(remarks: string) {
  const dates: string[] = [];
  const countries: string[] = [];
  for (const raw of remarks.split(';')) {
    const part = raw
      .trim()
      .replace(/\.$/, '')
      .replace(/^alt\.\s+/i, '');
    const dob = /^DOB\s+(.+)$/i.exec(part);
    if (dob) dates.push(...birthDates(dob[1]!));
    const nationality = /^(?:nationality|citizen)\s+(.+)$/i.exec(part);
    if (nationality) {
      const code = countryCode(nationality[1]!);
      if (code) countries.push(code);
    }
  }
  return { dates, countries };
}

export function parseOfacSdn(files: OfacFiles): ParsedList {
  const entries = new Map<string, ParsedEntry>();
  for (const row of rows('sdn.csv', files.sdn, 12)) {
    const uid = entNum('sdn.csv', row);
    const [, name, type, program, title, callSign, vesselType, , , vesselFlag, vesselOwner, remarks] =
      row.fields;
    if (!name) throw new ListFormatError('sdn.csv', row.line, 'SDN_Name is empty');
    if (entries.has(uid)) throw new ListFormatError('sdn.csv', row.line, `ent_num ${uid} appears twice`);
    const kind = type == null ? 'ENTITY' : KINDS[type.toLowerCase()];
    if (!kind)
      throw new ListFormatError(
        'sdn.csv',
        row.line,
        `SDN_Type "${type}" is not individual, vessel or aircraft`,
      );
    entries.set(uid, {
      sourceUid: uid,
      kind,
      primaryName: kind === 'INDIVIDUAL' ? displayName(name) : name,
      aliases: [],
      programs: program
        ? program
            .split(/\]\s*\[/)
            .map((p) => p.replace(/[[\]]/g, '').trim())
            .filter(Boolean)
        : [],
      countries: [],
      birthDates: [],
      remarks: remarks ?? null,
      addresses: [],
      details: {
        listedName: name,
        ...(title ? { title } : {}),
        ...(callSign ? { callSign } : {}),
        ...(vesselType ? { vesselType } : {}),
        ...(vesselFlag ? { vesselFlag } : {}),
        ...(vesselOwner ? { vesselOwner } : {}),
        postalAddresses: [] as string[],
      },
    });
  }
  const entryOf = (file: string, row: Row) => {
    const uid = entNum(file, row);
    const entry = entries.get(uid);
    if (!entry) throw new ListFormatError(file, row.line, `ent_num ${uid} is not in sdn.csv`);
    return entry;
  };
  if (files.comments) {
    for (const row of rows('sdn_comments.csv', files.comments, 2)) {
      const entry = entryOf('sdn_comments.csv', row);
      if (row.fields[1]) entry.remarks = `${entry.remarks ?? ''}${row.fields[1]}`;
    }
  }
  for (const row of rows('alt.csv', files.alt, 5)) {
    const entry = entryOf('alt.csv', row);
    const [, , altType, altName] = row.fields;
    if (!altName) throw new ListFormatError('alt.csv', row.line, 'alt_name is empty');
    entry.aliases.push({
      name: entry.kind === 'INDIVIDUAL' ? displayName(altName) : altName,
      quality: altType ? altType.toLowerCase() : null,
    });
  }
  for (const row of rows('add.csv', files.add, 6)) {
    const entry = entryOf('add.csv', row);
    const [, , street, city, country] = row.fields;
    const postal = [street, city, country].filter(Boolean).join(', ');
    if (postal) (entry.details.postalAddresses as string[]).push(postal);
    const code = country ? countryCode(country) : undefined;
    if (code) entry.countries.push(code);
  }
  for (const entry of entries.values()) {
    if (entry.remarks) {
      const { dates, countries } = readRemarks(entry.remarks);
      entry.birthDates.push(...dates);
      entry.countries.push(...countries);
      entry.addresses = digitalCurrencyAddresses(entry.remarks);
    }
    entry.countries = [...new Set(entry.countries)];
    entry.birthDates = [...new Set(entry.birthDates)];
  }
  return { source: 'OFAC_SDN', publishedAt: null, entries: [...entries.values()] };
}
