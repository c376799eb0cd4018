/**
 * Name similarity (docs/SCREENING.md): Jaro-Winkler between tokens, and a token-set score between two
 * normalised names that pairs each token with its most similar counterpart (each used once). Missing
 * tokens (a middle name one side omits) cost less than tokens that disagree.
 */

/** Jaro-Winkler similarity of two strings, 0..1 (prefix scale 0.1, prefix up to 4 characters). */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  const matchedA = new Uint8Array(la);
  const matchedB = new Uint8Array(lb);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(lb - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (matchedB[j] === 0 && a.charCodeAt(i) === b.charCodeAt(j)) {
        matchedA[i] = 1;
        matchedB[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < la; i++) {
    if (matchedA[i] === 0) continue;
    while (matchedB[k] === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  const m = matches;
  const jaro = (m / la + m / lb + (m - transpositions / 2) / m) / 3;
  let prefix = 0;
  const limit = Math.min(4, la, lb);
  while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/**
 * Two tokens of the longer name written as one in the shorter ("Abdul Rahman", "Abdulrahman") are
 * joined before pairing.
 */
function joinSplitTokens(short: readonly string[], long: readonly string[]): readonly string[] {
  for (const token of short) {
    if (token.length < 5) continue;
    for (let i = 0; i < long.length; i++) {
      for (let j = 0; j < long.length; j++) {
        if (i === j || long[i]!.length + long[j]!.length !== token.length) continue;
        if (`${long[i]}${long[j]}` !== token) continue;
        return [...long.filter((_, k) => k !== i && k !== j), token];
      }
    }
  }
  return long;
}

/** Below this, two tokens are not paired: they count as unmatched on both sides. */
const TOKEN_FLOOR = 0.8;
/** How much the longer name's unmatched tokens weigh against a match. */
const LONGER_SIDE_WEIGHT = 0.25;

/**
 * Token-set similarity of two token lists, 0..1. Pairs are chosen greedily, most similar first, each
 * token used once; a pair's weight is its similarity times its length. The score is the covered share
 * of the shorter name blended with (a quarter) the covered share of the longer one, so that
 * "John Smith" against "John Michael Smith" scores high and "Smith" against "John Smith" does not.
 */
export function tokenSetScore(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const [short, fewer] = a.length <= b.length ? [a, b] : [b, a];
  const long = a.length === b.length ? fewer : joinSplitTokens(short, fewer);
  const pairs: { s: number; l: number; sim: number }[] = [];
  for (let s = 0; s < short.length; s++) {
    for (let l = 0; l < long.length; l++) {
      const sim = jaroWinkler(short[s]!, long[l]!);
      if (sim >= TOKEN_FLOOR) pairs.push({ s, l, sim });
    }
  }
  pairs.sort((x, y) => y.sim - x.sim);
  const usedShort = new Uint8Array(short.length);
  const usedLong = new Uint8Array(long.length);
  let coveredShort = 0;
  let coveredLong = 0;
  for (const pair of pairs) {
    if (usedShort[pair.s] === 1 || usedLong[pair.l] === 1) continue;
    usedShort[pair.s] = 1;
    usedLong[pair.l] = 1;
    coveredShort += pair.sim * short[pair.s]!.length;
    coveredLong += pair.sim * long[pair.l]!.length;
  }
  const lengthOf = (tokens: readonly string[]) => tokens.reduce((sum, token) => sum + token.length, 0);
  const shortShare = coveredShort / lengthOf(short);
  const longShare = coveredLong / lengthOf(long);
  // a one-token name matches only a one-token name well: one shared surname is not an identity
  const oneToken = short.length === 1 && long.length > 1 ? 0.85 : 1;
  return ((1 - LONGER_SIDE_WEIGHT) * shortShare + LONGER_SIDE_WEIGHT * longShare) * oneToken;
}
