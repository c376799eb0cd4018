/**
 * List versions: an import stores a parsed list as a new version in one transaction (entries, names,
 * dates of birth, countries, chain addresses), puts it in force in place of the source's previous
 * version, and queues the re-screening of every subject against it. The matcher's in-memory index of the
 * versions in force is rebuilt when they change (a cache: a miss is only slower).
 */
import { createHash } from 'node:crypto';
import { newId } from '../../core/ids.ts';
import type { Database, Executor } from '../../db/types.ts';
import { addressKey } from './addresses.ts';
import * as repo from './list-repo.ts';
import { buildIndex, type MatchEntry, type MatchIndex } from './matcher.ts';
import { normalizeName } from './normalize.ts';
import { queueRun } from './runs-repo.ts';
import type { ParsedList } from './sources/types.ts';

export type ImportCounts = {
  versionId: string;
  source: ParsedList['source'];
  entries: number;
  names: number;
  aliases: number;
  birthDates: number;
  countries: number;
  addresses: number;
};

export const digestOf = (contents: readonly string[]) => {
  const hash = createHash('sha256');
  for (const content of contents) hash.update(content).update('\0');
  return hash.digest('hex');
};

export async function importList(
  db: Database,
  list: ParsedList,
  digest: string,
  at: Date,
  progress?: (written: number, total: number) => void,
): Promise<ImportCounts> {
  const versionId = newId();
  const entries: repo.EntryRow[] = [];
  const names: repo.NameRow[] = [];
  const addresses: repo.AddressRow[] = [];
  let aliases = 0;
  let birthDates = 0;
  let countries = 0;
  for (const entry of list.entries) {
    const id = newId();
    entries.push({
      id,
      source_uid: entry.sourceUid,
      kind: entry.kind,
      primary_name: entry.primaryName,
      programs: entry.programs,
      countries: entry.countries,
      birth_dates: entry.birthDates,
      remarks: entry.remarks,
      details: entry.details,
    });
    names.push({
      entry_id: id,
      name: entry.primaryName,
      normalized: normalizeName(entry.primaryName),
      alias: false,
      alias_quality: null,
    });
    for (const alias of entry.aliases) {
      names.push({
        entry_id: id,
        name: alias.name,
        normalized: normalizeName(alias.name),
        alias: true,
        alias_quality: alias.quality,
      });
    }
    for (const address of entry.addresses) {
      addresses.push({
        entry_id: id,
        currency: address.currency,
        address: address.address,
        address_key: addressKey(address.address),
      });
    }
    aliases += entry.aliases.length;
    birthDates += entry.birthDates.length;
    countries += entry.countries.length;
  }
  await db.transaction(async (tx) => {
    await repo.retireInForce(tx, list.source);
    await repo.insertVersion(tx, {
      id: versionId,
      source: list.source,
      published_at: list.publishedAt,
      digest,
      entries: entries.length,
      names: names.length,
      addresses: addresses.length,
      in_force: true,
      imported_at: at,
    });
    const total = entries.length + names.length + addresses.length;
    let done = 0;
    const written = (rows: number) => {
      done += rows;
      progress?.(done, total);
    };
    await repo.insertEntries(tx, versionId, entries, written);
    await repo.insertNames(tx, versionId, names, written);
    await repo.insertAddresses(tx, versionId, addresses, written);
    await queueRun(tx, versionId, at);
  });
  return {
    versionId,
    source: list.source,
    entries: entries.length,
    names: names.length,
    aliases,
    birthDates,
    countries,
    addresses: addresses.length,
  };
}

/** The versions in force and the latest imports, newest first (the console's page of lists). */
export async function listVersions(db: Executor, recent = 20) {
  const [inForce, latest] = await Promise.all([repo.versionsInForce(db), repo.recentVersions(db, recent)]);
  return { inForce, recent: latest };
}

/** Indexes built, by the ids of the versions they hold (versions never change once imported). */
const built = new Map<string, Promise<MatchIndex>>();
const KEPT = 2;

async function build(db: Executor, versionIds: string[]): Promise<MatchIndex> {
  const [entryRows, nameRows] = await Promise.all([
    repo.entriesOf(db, versionIds),
    repo.namesOf(db, versionIds),
  ]);
  const at = new Map<string, number>();
  const entries: MatchEntry[] = entryRows.map((row, i) => {
    at.set(row.id, i);
    return {
      id: row.id,
      versionId: row.version_id,
      source: row.source,
      sourceUid: row.source_uid,
      kind: row.kind,
      primaryName: row.primary_name,
      programs: row.programs,
      countries: row.countries,
      birthDates: row.birth_dates,
    };
  });
  const names = nameRows.map((row) => ({
    entry: at.get(row.entry_id)!,
    name: row.name,
    lowQuality: row.alias_quality === 'low',
  }));
  return buildIndex(entries, names);
}

/**
 * The matcher's index of the versions in force, read through `db` (a transaction's own reads work), built
 * once per set of versions and kept in memory: a cache, whose miss is only slower.
 */
export async function indexInForce(db: Executor): Promise<{ index: MatchIndex; versionIds: string[] }> {
  const versionIds = (await repo.versionsInForce(db)).map((v) => v.id).sort();
  const key = versionIds.join(',');
  for (let attempt = 1; ; attempt++) {
    let index = built.get(key);
    const ours = !index;
    if (!index) {
      index = build(db, versionIds);
      built.set(key, index);
      // registered before any waiter's, so a failed build is forgotten before they see it fail
      index.catch(() => built.delete(key));
      while (built.size > KEPT) built.delete(built.keys().next().value!);
    }
    try {
      return { index: await index, versionIds };
    } catch (error) {
      // A build started by another caller reads through that caller's transaction, which may have been
      // rolled back meanwhile: its failure is not ours, so build again through our own reads.
      if (ours || attempt >= 3) throw error;
    }
  }
}
