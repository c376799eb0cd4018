/**
 * Name normalisation for screening (docs/SCREENING.md): Unicode NFKC (fullwidth and mathematical letters
 * become plain ones), invisible and format characters removed (zero-width space and joiners, soft hyphen,
 * word joiner, ...), NFD with the combining marks removed, every other non-ASCII character replaced by its
 * prototype in Unicode's confusables table (UTS #39: Cyrillic and Greek look-alikes become Latin letters),
 * letters without a decomposition folded by hand (ß, æ, ø, ł, đ, ı, þ), lower case, every other character
 * a separator, particles and honorifics dropped, tokens sorted. Two spellings that differ only in
 * accents, case, punctuation, token order, particles or look-alike characters ("José da Silva",
 * "SILVA, Jose", "Jоsé dа Silvа" in part Cyrillic) normalise alike.
 */
import { createRequire } from 'node:module';

/**
 * UTS #39's confusables mapping (confusables.txt, as the `unhomoglyph` package ships it): a character to
 * its prototype, the character sequence it is meant to look like.
 */
const PROTOTYPES = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>;

const FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  ı: 'i',
  þ: 'th',
  ħ: 'h',
};

/**
 * Tokens that carry no identity: Portuguese, Spanish, Italian, French, Dutch and German particles, the
 * Arabic article and filiation words, honorifics, and the legal forms of entities.
 */
const PARTICLES = new Set([
  'de',
  'da',
  'do',
  'das',
  'dos',
  'del',
  'della',
  'di',
  'du',
  'des',
  'la',
  'le',
  'los',
  'las',
  'e',
  'y',
  'van',
  'von',
  'der',
  'den',
  'ter',
  'al',
  'el',
  'bin',
  'ben',
  'ibn',
  'bint',
  'binti',
  'ould',
  'mr',
  'mrs',
  'ms',
  'dr',
  'sheikh',
  'shaykh',
  'haji',
  'hajji',
  'mullah',
  'maulana',
  'ltd',
  'limited',
  'llc',
  'inc',
  'co',
  'corp',
  'corporation',
  'company',
  'sa',
  'ltda',
  'gmbh',
  'plc',
  'jsc',
  'ojsc',
  'pjsc',
  'oao',
  'ooo',
  'zao',
  'fze',
  'fzco',
]);

const MARKS = /\p{M}+/gu;
/**
 * What is not seen: format characters (zero-width space, joiners, soft hyphen, word joiner, bidi
 * controls, ...) and every other default-ignorable code point (variation selectors, fillers).
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]+/gu;
/** A dot or middle dot between two letters ("V.i.k.t.o.r", "O.O.O."): written through, not a break. */
const INNER_DOTS = /(?<=[\p{L}\p{N}])[.\u00b7\u2027\u30fb](?=[\p{L}\p{N}])/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const NON_ASCII = /\P{ASCII}/u;

const ASCII = /^\p{ASCII}+$/u;

/**
 * The table writes the shape of a capital I as "l" (Latin "I" itself maps to "l"). Names are compared in
 * lower case, where Latin "I" is "i": a capital whose prototype is another ASCII capital's prototype is
 * read as that capital, so Cyrillic "І" and Greek "Ι" fold as Latin "I" does.
 */
const CAPITAL_OF = new Map<string, string>(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].flatMap((capital) => {
    const prototype = PROTOTYPES[capital];
    return prototype === undefined ? [] : [[prototype, capital] as const];
  }),
);

/**
 * A non-ASCII character's confusables prototype. The table maps each case on its own (Cyrillic "К" to
 * "K" but "к" to "ĸ"): the prototype in plain letters of the character, else of its capital; else the
 * character's own prototype; else the character.
 */
function prototypeOf(char: string): string {
  for (const form of [char, char.toUpperCase()]) {
    const prototype = PROTOTYPES[form];
    if (prototype === undefined || !ASCII.test(prototype)) continue;
    return form !== form.toLowerCase() ? (CAPITAL_OF.get(prototype) ?? prototype) : prototype;
  }
  return PROTOTYPES[char] ?? char;
}

/** Accent-free lower-case letters and digits, every run of anything else one space. */
export function foldName(name: string): string {
  const visible = name.normalize('NFKC').replace(INVISIBLE, '').replace(INNER_DOTS, '');
  let plain = '';
  for (const char of visible.normalize('NFD').replace(MARKS, '')) {
    plain += NON_ASCII.test(char) ? prototypeOf(char) : char;
  }
  // a prototype may carry a mark of its own (the bar of "b̄"), and a lower-case letter may decompose
  const decomposed = plain.normalize('NFD').replace(MARKS, '').toLowerCase();
  let folded = '';
  for (const char of decomposed) folded += FOLDS[char] ?? char;
  return folded;
}

/**
 * A run of three or more one-character tokens is one name spelled out letter by letter ("V i k t o r",
 * "V-i-k-t-o-r"): its letters are joined into one token.
 */
function joinSpelledOut(tokens: string[]): string[] {
  const joined: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length >= 3) joined.push(run.join(''));
    else joined.push(...run);
    run = [];
  };
  for (const token of tokens) {
    if ([...token].length === 1) run.push(token);
    else {
      flush();
      joined.push(token);
    }
  }
  flush();
  return joined;
}

/** The name's identifying tokens, sorted: particles dropped unless nothing else is left. */
export function nameTokens(name: string): string[] {
  const all = joinSpelledOut(
    foldName(name)
      .split(SEPARATORS)
      .filter((token) => token.length > 0),
  );
  const kept = all.filter((token) => !PARTICLES.has(token));
  return (kept.length > 0 ? kept : all).sort();
}

/** The normalised form stored beside each list name: its tokens joined by one space. */
export const normalizeName = (name: string): string => nameTokens(name).join(' ');

/**
 * "LAST, First Middle" (OFAC's order for individuals) as it is read aloud: "First Middle LAST". Names
 * without exactly one comma are left as they are.
 */
export function displayName(name: string): string {
  const parts = name.split(',');
  if (parts.length !== 2) return name.trim();
  const [last, first] = parts.map((part) => part.trim());
  return first ? `${first} ${last}` : last!;
}
