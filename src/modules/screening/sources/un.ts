/**
 * The UN Security Council consolidated list (XML): CONSOLIDATED_LIST (dateGenerated) holding INDIVIDUALS
 * and ENTITIES. An INDIVIDUAL has DATAID, FIRST_NAME..FOURTH_NAME, REFERENCE_NUMBER, UN_LIST_TYPE,
 * LISTED_ON, NATIONALITY/VALUE, INDIVIDUAL_ALIAS (QUALITY, ALIAS_NAME), INDIVIDUAL_ADDRESS (STREET, CITY,
 * STATE_PROVINCE, COUNTRY), INDIVIDUAL_DATE_OF_BIRTH (TYPE_OF_DATE with DATE, YEAR or FROM_YEAR/TO_YEAR);
 * an ENTITY has FIRST_NAME (its name), ENTITY_ALIAS and ENTITY_ADDRESS.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { countryCode } from '../countries.ts';
import { birthDates, ListFormatError, type ParsedEntry, type ParsedList } from './types.ts';

const REPEATED = new Set([
  'INDIVIDUAL',
  'ENTITY',
  'INDIVIDUAL_ALIAS',
  'ENTITY_ALIAS',
  'INDIVIDUAL_ADDRESS',
  'ENTITY_ADDRESS',
  'INDIVIDUAL_DATE_OF_BIRTH',
  'VALUE',
]);

type Node = Record<string, unknown>;

const text = (value: unknown): string | null => {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number') return String(value);
  return null;
};
const nodes = (value: unknown): Node[] => (Array.isArray(value) ? value : value ? [value] : []) as Node[];
/** The texts of an element's VALUE children (NATIONALITY, DESIGNATION, ...). */
const values = (value: unknown): string[] =>
  nodes(value)
    .flatMap((node) => nodes(node.VALUE).map(text))
    .filter((v): v is string => v !== null);

/** The line of the n-th (0-based) opening `<tag>` in the document, for refusals. */
function lineOf(xml: string, tag: string, n: number): number | null {
  const pattern = new RegExp(`<${tag}[\\s>]`, 'g');
  let match: RegExpExecArray | null = null;
  for (let i = 0; i <= n; i++) {
    match = pattern.exec(xml);
    if (!match) return null;
  }
  return xml.slice(0, match!.index).split('\n').length;
}

export function parseUnList(file: string, xml: string): ParsedList {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new ListFormatError(file, valid.err.line, valid.err.msg);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    trimValues: true,
    isArray: (name) => REPEATED.has(name),
  });
  const document = parser.parse(xml) as Node;
  const root = document.CONSOLIDATED_LIST as Node | undefined;
  if (!root || typeof root !== 'object') throw new ListFormatError(file, 1, 'no CONSOLIDATED_LIST element');
  const generated = text(root['@dateGenerated']);
  const publishedAt = generated ? new Date(generated) : null;
  if (publishedAt && Number.isNaN(publishedAt.getTime())) {
    throw new ListFormatError(file, 1, `dateGenerated "${generated}" is not a date`);
  }
  const entries: ParsedEntry[] = [];
  const seen = new Set<string>();
  const read = (tag: 'INDIVIDUAL' | 'ENTITY', list: Node[]) => {
    list.forEach((node, n) => {
      const refuse = (reason: string): never => {
        throw new ListFormatError(file, lineOf(xml, tag, n), `${tag} ${n + 1}: ${reason}`);
      };
      const uid = text(node.REFERENCE_NUMBER) ?? text(node.DATAID);
      if (!uid) refuse('has neither REFERENCE_NUMBER nor DATAID');
      if (seen.has(uid!)) refuse(`${uid} appears twice`);
      seen.add(uid!);
      const name = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME']
        .map((part) => text(node[part]))
        .filter(Boolean)
        .join(' ');
      if (!name) refuse('has no FIRST_NAME');
      const prefix = tag === 'INDIVIDUAL' ? 'INDIVIDUAL' : 'ENTITY';
      const aliases = nodes(node[`${prefix}_ALIAS`])
        .map((alias) => ({
          name: text(alias.ALIAS_NAME),
          quality: text(alias.QUALITY)?.toLowerCase() ?? null,
        }))
        .filter((alias): alias is { name: string; quality: string | null } => alias.name !== null);
      const addresses = nodes(node[`${prefix}_ADDRESS`]);
      const countryNames = [
        ...values(node.NATIONALITY),
        ...addresses.map((address) => text(address.COUNTRY)).filter((c): c is string => c !== null),
      ];
      const dates = nodes(node.INDIVIDUAL_DATE_OF_BIRTH).flatMap((dob) => {
        const exact = text(dob.DATE);
        if (exact) return birthDates(exact.slice(0, 10));
        const from = text(dob.FROM_YEAR);
        const to = text(dob.TO_YEAR);
        if (from && to) return birthDates(`${from} to ${to}`);
        const year = text(dob.YEAR);
        return year ? birthDates(year) : [];
      });
      entries.push({
        sourceUid: uid!,
        kind: tag === 'INDIVIDUAL' ? 'INDIVIDUAL' : 'ENTITY',
        primaryName: name,
        aliases,
        programs: [text(node.UN_LIST_TYPE)].filter((p): p is string => p !== null),
        countries: [...new Set(countryNames.map(countryCode).filter((c): c is string => c !== undefined))],
        birthDates: [...new Set(dates)],
        remarks: text(node.COMMENTS1),
        addresses: [],
        details: {
          ...(text(node.LISTED_ON) ? { listedOn: text(node.LISTED_ON) } : {}),
          ...(text(node.NAME_ORIGINAL_SCRIPT) ? { nameOriginalScript: text(node.NAME_ORIGINAL_SCRIPT) } : {}),
          nationalities: values(node.NATIONALITY),
          postalAddresses: addresses
            .map((address) =>
              ['STREET', 'CITY', 'STATE_PROVINCE', 'COUNTRY']
                .map((part) => text(address[part]))
                .filter(Boolean)
                .join(', '),
            )
            .filter(Boolean),
        },
      });
    });
  };
  read('INDIVIDUAL', nodes((root.INDIVIDUALS as Node | undefined)?.INDIVIDUAL));
  read('ENTITY', nodes((root.ENTITIES as Node | undefined)?.ENTITY));
  return { source: 'UN', publishedAt, entries };
}
