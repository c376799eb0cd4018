/**
 * The name matcher (docs/SCREENING.md). A list version is indexed once in memory: every name of every
 * entry as sorted normalised tokens, and a posting list per blocking key (the first four and the last four
 * letters of each token). A subject's candidates are the names sharing at least one key with it, so a
 * screening scores tens of names, not the whole list; each candidate is scored by token-set Jaro-Winkler,
 * then the entry's dates of birth and countries raise or lower the score.
 */
import { nameTokens } from './normalize.ts';
import { tokenSetScore } from './similarity.ts';

export type EntryKind = 'INDIVIDUAL' | 'ENTITY' | 'VESSEL' | 'AIRCRAFT';

export type MatchEntry = {
  id: string;
  versionId: string;
  source: string;
  sourceUid: string;
  kind: EntryKind;
  primaryName: string;
  programs: string[];
  countries: string[];
  birthDates: string[];
};

export type MatchName = { entry: number; name: string; tokens: string[]; lowQuality: boolean };

export type MatchIndex = {
  entries: MatchEntry[];
  names: MatchName[];
  postings: Map<string, number[]>;
};

/** Who is screened: a name, and where known their date of birth (YYYY-MM-DD) and country (alpha-3). */
export type ScreenedParty = {
  name: string;
  kind: 'INDIVIDUAL' | 'BUSINESS' | 'UNKNOWN';
  birthDate?: string | null | undefined;
  country?: string | null | undefined;
};

export type NameMatch = {
  entry: MatchEntry;
  matchedName: string;
  nameScore: number;
  score: number;
  /** What moved the score: "date of birth matches", "country differs", ... */
  factors: string[];
};

/** Score changes from the corroborating facts, tuned on the labelled set (docs/SCREENING.md). */
export const ADJUSTMENTS = {
  birthDateExact: 0.05,
  birthYear: 0.02,
  birthNear: -0.03,
  birthDiffers: -0.12,
  countryMatches: 0.02,
  countryDiffers: -0.03,
  lowQualityAlias: -0.03,
} as const;

/** A token's blocking keys: its first four and last four letters (the token itself when shorter). */
function blockingKeys(tokens: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const token of tokens) {
    keys.add(`<${token.slice(0, 4)}`);
    keys.add(`>${token.slice(-4)}`);
  }
  return [...keys];
}

export function buildIndex(
  entries: MatchEntry[],
  names: { entry: number; name: string; lowQuality: boolean }[],
): MatchIndex {
  const indexed: MatchName[] = [];
  const postings = new Map<string, number[]>();
  for (const name of names) {
    const tokens = nameTokens(name.name);
    if (tokens.length === 0) continue;
    const at = indexed.length;
    indexed.push({ ...name, tokens });
    for (const key of blockingKeys(tokens)) {
      const list = postings.get(key);
      if (list) list.push(at);
      else postings.set(key, [at]);
    }
  }
  return { entries, names: indexed, postings };
}

const kindFits = (party: ScreenedParty['kind'], entry: EntryKind) =>
  party === 'UNKNOWN' || (party === 'INDIVIDUAL') === (entry === 'INDIVIDUAL');

function birthFactor(birthDate: string | null | undefined, listed: readonly string[]) {
  if (!birthDate || listed.length === 0) return null;
  const year = Number(birthDate.slice(0, 4));
  let nearest = Number.POSITIVE_INFINITY;
  let best: { change: number; factor: string } | null = null;
  for (const date of listed) {
    if (date.length === 10 && date === birthDate)
      return { change: ADJUSTMENTS.birthDateExact, factor: 'date of birth matches' };
    if (date.length < 10 && birthDate.startsWith(date))
      best = { change: ADJUSTMENTS.birthYear, factor: 'year of birth matches' };
    nearest = Math.min(nearest, Math.abs(Number(date.slice(0, 4)) - year));
  }
  if (best) return best;
  if (nearest <= 1) return { change: ADJUSTMENTS.birthNear, factor: 'date of birth differs slightly' };
  return { change: ADJUSTMENTS.birthDiffers, factor: 'date of birth differs' };
}

function countryFactor(country: string | null | undefined, listed: readonly string[]) {
  if (!country || listed.length === 0) return null;
  return listed.includes(country)
    ? { change: ADJUSTMENTS.countryMatches, factor: 'country matches' }
    : { change: ADJUSTMENTS.countryDiffers, factor: 'country differs' };
}

/** The final score of one candidate name for the party: name similarity moved by the corroborating facts. */
export function scoreCandidate(
  party: ScreenedParty,
  tokens: readonly string[],
  name: MatchName,
  entry: MatchEntry,
) {
  const nameScore = tokenSetScore(tokens, name.tokens);
  let score = nameScore;
  const factors: string[] = [];
  if (name.lowQuality) {
    score += ADJUSTMENTS.lowQualityAlias;
    factors.push('low-quality alias');
  }
  for (const factor of [
    birthFactor(party.birthDate, entry.birthDates),
    countryFactor(party.country, entry.countries),
  ]) {
    if (!factor) continue;
    score += factor.change;
    factors.push(factor.factor);
  }
  return { nameScore, score: Math.max(0, Math.min(1, score)), factors };
}

/**
 * Per index, a scratch array of the query tokens each name shares a blocking key with (a bit per token),
 * and the names touched: matching is synchronous, so one scratch per index serves every query.
 */
const scratch = new WeakMap<MatchIndex, { masks: Int32Array; touched: Int32Array }>();

function scratchOf(index: MatchIndex) {
  let found = scratch.get(index);
  if (!found) {
    found = { masks: new Int32Array(index.names.length), touched: new Int32Array(index.names.length) };
    scratch.set(index, found);
  }
  return found;
}

const popcount = (mask: number) => {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
};

/**
 * Every entry whose best-scoring name reaches `threshold` for the party, best first. A name is scored
 * only when it shares a blocking key with two of the party's tokens (one, when either name has one
 * token): one shared first name alone never scores above the threshold, so it is not worth scoring.
 */
export function matchParty(index: MatchIndex, party: ScreenedParty, threshold: number): NameMatch[] {
  const tokens = nameTokens(party.name);
  if (tokens.length === 0) return [];
  const { masks, touched } = scratchOf(index);
  let count = 0;
  const keyed = tokens.slice(0, 30);
  keyed.forEach((token, bit) => {
    for (const key of blockingKeys([token])) {
      const list = index.postings.get(key);
      if (!list) continue;
      for (const at of list) {
        if (masks[at] === 0) touched[count++] = at;
        masks[at]! |= 1 << bit;
      }
    }
  });
  const best = new Map<number, NameMatch>();
  for (let i = 0; i < count; i++) {
    const at = touched[i]!;
    const shared = popcount(masks[at]!);
    masks[at] = 0;
    const name = index.names[at]!;
    if (shared < Math.min(2, keyed.length, name.tokens.length)) continue;
    const entry = index.entries[name.entry]!;
    if (!kindFits(party.kind, entry.kind)) continue;
    const scored = scoreCandidate(party, tokens, name, entry);
    if (scored.score < threshold) continue;
    const previous = best.get(name.entry);
    if (!previous || previous.score < scored.score) {
      best.set(name.entry, { entry, matchedName: name.name, ...scored });
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}
