/**
 * Name normalisation for screening (docs/SCREENING.md): Unicode NFD with the combining marks removed,
 * letters without a decomposition folded by hand (ß, æ, ø, ł, đ, ı, þ), lower case, every other
 * character a separator, particles and honorifics dropped, tokens sorted. Two spellings that differ only
 * in accents, case, punctuation, token order or particles ("José da Silva", "SILVA, Jose") normalise alike.
 */

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
const SEPARATORS = /[^\p{L}\p{N}]+/u;

/** Accent-free lower-case letters and digits, every run of anything else one space. */
export function foldName(name: string): string {
  const decomposed = name.normalize('NFD').replace(MARKS, '').toLowerCase();
  let folded = '';
  for (const char of decomposed) folded += FOLDS[char] ?? char;
  return folded;
}

/** The name's identifying tokens, sorted: particles dropped unless nothing else is left. */
export function nameTokens(name: string): string[] {
  const all = foldName(name)
    .split(SEPARATORS)
    .filter((token) => token.length > 0);
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
