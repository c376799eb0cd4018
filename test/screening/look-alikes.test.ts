/**
 * Look-alike spellings of a listed name: Unicode NFKC, invisible and format characters removed, confusable
 * letters folded (UTS #39). A customer or a bank-account holder whose name is a listed one written with
 * homoglyphs, zero-width or fullwidth characters is held as the plain spelling is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBody } from '../bank-accounts/bodies.ts';
import { approvedCustomer, createCustomer, individualBody } from '../helpers/factories.ts';
import { startTestApi, type TestApi } from '../helpers/server.ts';
import { FIXTURES, importFixture } from './support.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ownDatabase: true });
  // the labelled list: DRAKONSKY, Viktor Fictionalovich is entry 82001
  await importFixture(api.server, 'ofac-sdn', `${FIXTURES}labelled`);
});
afterAll(() => api.server.close());

const LISTED = '82001';

async function matchedEntries(subjectId: string): Promise<string[]> {
  const answer = await api.operator.get(`/operator/screening/cases?subjectId=${subjectId}&status=OPEN`);
  expect(answer.statusCode).toBe(200);
  return (answer.json().data as { matches: { sourceUid: string }[] }[]).flatMap((found) =>
    found.matches.map((match) => match.sourceUid),
  );
}

const CYRILLIC: Record<string, string> = {
  A: 'А',
  C: 'С',
  E: 'Е',
  H: 'Н',
  K: 'К',
  O: 'О',
  P: 'Р',
  T: 'Т',
  X: 'Х',
  Y: 'Ү',
  a: 'а',
  c: 'с',
  e: 'е',
  i: 'і',
  k: 'к',
  o: 'о',
  p: 'р',
  x: 'х',
  y: 'у',
};
const cyrillic = (name: string) => [...name].map((c) => CYRILLIC[c] ?? c).join('');
const between = (mark: string) => (name: string) =>
  name
    .split(' ')
    .map((word) => [...word].join(mark))
    .join(' ');
const offset = (upper: number, lower: number) => (name: string) =>
  [...name]
    .map((c) =>
      c >= 'A' && c <= 'Z'
        ? String.fromCodePoint(upper + c.charCodeAt(0) - 65)
        : c >= 'a' && c <= 'z'
          ? String.fromCodePoint(lower + c.charCodeAt(0) - 97)
          : c,
    )
    .join('');
const fullwidth = (name: string) => offset(0xff21, 0xff41)(name).replace(/ /g, '\u3000');

const NAME = 'Viktor Fictionalovich DRAKONSKY';

const CUSTOMER_VARIANTS: [string, string][] = [
  ['plain', NAME],
  ['list order, lower case', 'drakonsky, viktor fictionalovich'],
  ['one Cyrillic letter', NAME.replace('o', 'о')],
  ['Cyrillic homoglyphs throughout', cyrillic(NAME)],
  ['Greek capitals', 'Viktor Fictionalovich DRΑΚΟΝSΚΥ'],
  ['zero-width space', between('\u200b')(NAME)],
  ['zero-width non-joiner', between('\u200c')(NAME)],
  ['zero-width joiner', between('\u200d')(NAME)],
  ['soft hyphen', between('\u00ad')(NAME)],
  ['word joiner', between('\u2060')(NAME)],
  ['zero-width no-break space', between('\ufeff')(NAME)],
  ['fullwidth letters', fullwidth(NAME)],
  ['mathematical bold letters', offset(0x1d400, 0x1d41a)(NAME)],
  ['mathematical italic sans-serif letters', offset(0x1d608, 0x1d622)(NAME)],
  ['dots between letters', between('.')(NAME)],
  ['accents and Cyrillic', cyrillic('Víktor Fictionalóvich DRAKÓNSKY')],
  ['fullwidth, Cyrillic and zero-width together', between('\u200b')(fullwidth(cyrillic(NAME)))],
];

describe('screening look-alike spellings', () => {
  it('holds a customer whose name is a listed name in homoglyphs, invisible, fullwidth or mathematical letters', async () => {
    const missed: string[] = [];
    for (const [variant, name] of CUSTOMER_VARIANTS) {
      const customer = await createCustomer(
        api.sandbox,
        individualBody({ name, birthDate: '1972-04-18', country: 'BRA' }),
      );
      if (!(await matchedEntries(customer.id)).includes(LISTED)) missed.push(variant);
    }
    expect(missed).toEqual([]);
  });

  it('holds a bank-account holder whose name is a listed name in Cyrillic, zero-width or fullwidth letters', async () => {
    const customer = await approvedCustomer(api.sandbox, individualBody({ name: 'Rafael Nogueira' }));
    const missed: string[] = [];
    for (const [variant, legalName] of [
      ['Cyrillic homoglyphs', cyrillic(NAME)],
      ['zero-width space', between('\u200b')(NAME)],
      ['fullwidth letters', fullwidth(NAME)],
      ['soft hyphen and Cyrillic', between('\u00ad')(cyrillic('DRAKONSKY, Viktor Fictionalovich'))],
    ] as const) {
      const created = await api.sandbox.post(
        '/bank-accounts',
        accountBody(customer.id, { holder: { legalName } }),
      );
      expect(created.statusCode, variant).toBe(201);
      if (!(await matchedEntries(created.json().id)).includes(LISTED)) missed.push(variant);
    }
    expect(missed).toEqual([]);
  });

  it('does not hold a name really written in another script, nor a look-alike spelling of another person', async () => {
    for (const name of [
      'Виктор Драконский',
      cyrillic('Viktor Nogueira Pereira'),
      between('\u200b')('Mariana Costa'),
    ]) {
      const customer = await createCustomer(
        api.sandbox,
        individualBody({ name, birthDate: '1972-04-18', country: 'BRA' }),
      );
      expect(await matchedEntries(customer.id), name).toEqual([]);
    }
  });
});
