/**
 * The name matcher: normalisation (accents, case, token order, particles), token-set Jaro-Winkler, and its
 * precision and recall at the configured threshold on a labelled set of pairs built from a list's aliases
 * and spelling variants (fixtures/labelled, made by its generate.ts), imported like any list.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexInForce } from '../../src/modules/screening/lists.ts';
import { matchParty } from '../../src/modules/screening/matcher.ts';
import { nameTokens, normalizeName } from '../../src/modules/screening/normalize.ts';
import { jaroWinkler, tokenSetScore } from '../../src/modules/screening/similarity.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { FIXTURES, importFixture } from './support.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ ownDatabase: true, workers: false });
  await importFixture(server, 'ofac-sdn', `${FIXTURES}labelled`);
});
afterAll(() => server.close());

describe('name normalisation and similarity', () => {
  it('normalises accents, case, punctuation, token order and particles alike', () => {
    expect(normalizeName('José da Silva')).toBe('jose silva');
    expect(normalizeName('SILVA, Jose')).toBe('jose silva');
    expect(normalizeName('Faisal bin Hamad AL-RASHIDI')).toBe('faisal hamad rashidi');
    expect(normalizeName('Müller-Lüdenscheidt, Jürgen')).toBe('jurgen ludenscheidt muller');
    expect(normalizeName('Łukasz Ørsted Straße')).toBe('lukasz orsted strasse');
    expect(normalizeName('GOLDEN LOTUS TRADING CO LTD')).toBe('golden lotus trading');
    // a name of particles only keeps them rather than vanish
    expect(nameTokens('De La')).toEqual(['de', 'la']);
  });

  it('folds look-alike spellings: NFKC, invisible and format characters removed, confusables (UTS #39), dots between letters', () => {
    const plain = 'drakonsky fictionalovich viktor';
    for (const name of [
      'DRАКОNSКY, Vікtоr Fісtіоnаlоvісh', // Cyrillic А К О і о а с
      'VІKTOR FICTIONALOVICH DRΑΚΟΝSΚΥ', // Cyrillic capital І, Greek capitals
      'Vi\u200bktor Fi\u200cctio\u200dnalo\u00advich DRA\u2060KON\ufeffSKY',
      'ＤＲＡＫＯＮＳＫＹ，　Ｖｉｋｔｏｒ　Ｆｉｃｔｉｏｎａｌｏｖｉｃｈ',
      '𝐕𝐢𝐤𝐭𝐨𝐫 𝐅𝐢𝐜𝐭𝐢𝐨𝐧𝐚𝐥𝐨𝐯𝐢𝐜𝐡 𝐃𝐑𝐀𝐊𝐎𝐍𝐒𝐊𝐘',
      'V.i.k.t.o.r F·i·c·t·i·o·n·a·l·o·v·i·c·h D.R.A.K.O.N.S.K.Y',
    ]) {
      expect(normalizeName(name), name).toBe(plain);
    }
    // spelled out letter by letter with spaces: one token, as the list's name written without spaces
    expect(nameTokens('V i k t o r')).toEqual(['viktor']);
    // a name really written in Cyrillic stays apart from any Latin one
    expect(normalizeName('Виктор Драконский')).not.toBe('drakonsky viktor');
  });

  it('scores with Jaro-Winkler over token sets: order-free, forgiving of a missing middle name, not of one shared token', () => {
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.961, 3);
    expect(jaroWinkler('dixon', 'dicksonx')).toBeCloseTo(0.813, 3);
    expect(tokenSetScore(['john', 'smith'], ['smith', 'john'])).toBe(1);
    expect(tokenSetScore(['john', 'smith'], ['john', 'michael', 'smith'])).toBeGreaterThan(0.88);
    expect(tokenSetScore(['smith'], ['john', 'smith'])).toBeLessThan(0.88);
    expect(tokenSetScore(['john', 'smith'], ['john', 'brown'])).toBeLessThan(0.7);
    expect(tokenSetScore(['abdulrahman', 'yasin'], ['abdul', 'rahman', 'yasin'])).toBe(1);
  });
});

type Pair = {
  name: string;
  birth_date: string;
  country: string;
  ent_num: string;
  label: string;
  variant: string;
};

describe('matcher quality on the labelled set', () => {
  it('measures precision and recall at the configured threshold, above their floors', async () => {
    const pairs = parse(readFileSync(`${FIXTURES}labelled/pairs.csv`, 'utf8'), { columns: true }) as Pair[];
    expect(pairs.length).toBeGreaterThanOrEqual(200);
    const { index } = await indexInForce(server.ctx.db);
    const threshold = server.config.screening.threshold;
    const tally = { tp: 0, fp: 0, fn: 0, tn: 0 };
    const misses: string[] = [];
    for (const pair of pairs) {
      const kind = pair.variant.startsWith('entity') ? 'BUSINESS' : 'INDIVIDUAL';
      const found = matchParty(
        index,
        { name: pair.name, kind, birthDate: pair.birth_date || null, country: pair.country || null },
        threshold,
      ).some((match) => match.entry.sourceUid === pair.ent_num);
      const positive = pair.label === '1';
      if (positive && found) tally.tp++;
      else if (positive) tally.fn++;
      else if (found) tally.fp++;
      else tally.tn++;
      if (positive !== found)
        misses.push(`${positive ? 'missed' : 'false hit'}: ${pair.name} ~ ${pair.ent_num} (${pair.variant})`);
    }
    const precision = tally.tp / (tally.tp + tally.fp);
    const recall = tally.tp / (tally.tp + tally.fn);
    console.info(
      `screening matcher at threshold ${threshold}: ${pairs.length} pairs, precision ${precision.toFixed(3)}, ` +
        `recall ${recall.toFixed(3)} (${JSON.stringify(tally)})\n${misses.join('\n')}`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.97);
    expect(recall).toBeGreaterThanOrEqual(0.97);
  });
});
