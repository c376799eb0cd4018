/** SQL of list versions: storing an import, reading the versions in force, their names and addresses. */
import type { Executor } from '../../db/types.ts';
import type { EntryKind } from './matcher.ts';
import type { ListSource } from './sources/types.ts';

export type ListVersionRow = {
  id: string;
  source: ListSource;
  published_at: Date | null;
  digest: string;
  entries: number;
  names: number;
  addresses: number;
  in_force: boolean;
  imported_at: Date;
};

export type EntryRow = {
  id: string;
  source_uid: string;
  kind: EntryKind;
  primary_name: string;
  programs: string[];
  countries: string[];
  birth_dates: string[];
  remarks: string | null;
  details: Record<string, unknown>;
};

const CHUNK = 2_000;

/** Progress of a long write: called with the rows of each chunk once written. */
export type RowsWritten = (rows: number) => void;

async function inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>, written?: RowsWritten) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await write(chunk);
    written?.(chunk.length);
  }
}

/** Takes the source's version in force out of force; the new one is inserted in force after it. */
export async function retireInForce(db: Executor, source: ListSource): Promise<void> {
  await db.query(`UPDATE screening_list_versions SET in_force = false WHERE source = $1 AND in_force`, [
    source,
  ]);
}

export async function insertVersion(db: Executor, row: ListVersionRow): Promise<void> {
  await db.query(
    `INSERT INTO screening_list_versions (id, source, published_at, digest, entries, names, addresses, in_force,
                                          imported_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      row.id,
      row.source,
      row.published_at,
      row.digest,
      row.entries,
      row.names,
      row.addresses,
      row.in_force,
      row.imported_at,
    ],
  );
}

export async function insertEntries(
  db: Executor,
  versionId: string,
  rows: EntryRow[],
  written?: RowsWritten,
): Promise<void> {
  await inChunks(
    rows,
    (chunk) =>
      db.query(
        `INSERT INTO screening_entries (id, version_id, source_uid, kind, primary_name, programs, countries,
                                      birth_dates, remarks, details)
       SELECT r.id, $1, r.source_uid, r.kind, r.primary_name, r.programs, r.countries, r.birth_dates, r.remarks,
              r.details
         FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, source_uid text, kind text, primary_name text,
              programs text[], countries text[], birth_dates text[], remarks text, details jsonb)`,
        [versionId, JSON.stringify(chunk)],
      ),
    written,
  );
}

export type NameRow = {
  entry_id: string;
  name: string;
  normalized: string;
  alias: boolean;
  alias_quality: string | null;
};

export async function insertNames(
  db: Executor,
  versionId: string,
  rows: NameRow[],
  written?: RowsWritten,
): Promise<void> {
  await inChunks(
    rows,
    (chunk) =>
      db.query(
        `INSERT INTO screening_names (entry_id, version_id, name, normalized, alias, alias_quality)
       SELECT r.entry_id, $1, r.name, r.normalized, r.alias, r.alias_quality
         FROM jsonb_to_recordset($2::jsonb)
           AS r(entry_id uuid, name text, normalized text, alias boolean, alias_quality text)`,
        [versionId, JSON.stringify(chunk)],
      ),
    written,
  );
}

export type AddressRow = { entry_id: string; currency: string; address: string; address_key: string };

export async function insertAddresses(
  db: Executor,
  versionId: string,
  rows: AddressRow[],
  written?: RowsWritten,
): Promise<void> {
  await inChunks(
    rows,
    (chunk) =>
      db.query(
        `INSERT INTO screening_addresses (entry_id, version_id, currency, address, address_key)
       SELECT r.entry_id, $1, r.currency, r.address, r.address_key
         FROM jsonb_to_recordset($2::jsonb) AS r(entry_id uuid, currency text, address text, address_key text)`,
        [versionId, JSON.stringify(chunk)],
      ),
    written,
  );
}

export async function versionsInForce(db: Executor): Promise<ListVersionRow[]> {
  return db.query<ListVersionRow>(
    `SELECT id, source, published_at, digest, entries, names, addresses, in_force, imported_at
       FROM screening_list_versions WHERE in_force ORDER BY source`,
  );
}

export async function recentVersions(db: Executor, limit: number): Promise<ListVersionRow[]> {
  return db.query<ListVersionRow>(
    `SELECT id, source, published_at, digest, entries, names, addresses, in_force, imported_at
       FROM screening_list_versions ORDER BY imported_at DESC, id DESC LIMIT $1`,
    [limit],
  );
}

export type IndexEntryRow = EntryRow & { version_id: string; source: ListSource };

export async function entriesOf(db: Executor, versionIds: string[]): Promise<IndexEntryRow[]> {
  return db.query<IndexEntryRow>(
    `SELECT e.id, e.version_id, v.source, e.source_uid, e.kind, e.primary_name, e.programs, e.countries,
            e.birth_dates, e.remarks, '{}'::jsonb AS details
       FROM screening_entries e JOIN screening_list_versions v ON v.id = e.version_id
      WHERE e.version_id = ANY($1::uuid[])`,
    [versionIds],
  );
}

export async function namesOf(
  db: Executor,
  versionIds: string[],
): Promise<{ entry_id: string; name: string; alias_quality: string | null }[]> {
  return db.query(
    `SELECT entry_id, name, alias_quality FROM screening_names WHERE version_id = ANY($1::uuid[])`,
    [versionIds],
  );
}

export type ListedAddressRow = {
  entry_id: string;
  version_id: string;
  source: ListSource;
  source_uid: string;
  primary_name: string;
  currency: string;
  address: string;
};

/** The in-force entries listing an address, compared in its key form (`addresses.ts`). */
export async function findListedAddress(db: Executor, key: string): Promise<ListedAddressRow[]> {
  return db.query<ListedAddressRow>(
    `SELECT a.entry_id, a.version_id, v.source, e.source_uid, e.primary_name, a.currency, a.address
       FROM screening_addresses a
       JOIN screening_list_versions v ON v.id = a.version_id AND v.in_force
       JOIN screening_entries e ON e.id = a.entry_id
      WHERE a.address_key = $1`,
    [key],
  );
}

/** One entry in full, with its names and addresses, for the reviewer. */
export async function findEntry(db: Executor, id: string) {
  const [entry] = await db.query<EntryRow & { version_id: string; source: ListSource }>(
    `SELECT e.id, e.version_id, v.source, e.source_uid, e.kind, e.primary_name, e.programs, e.countries,
            e.birth_dates, e.remarks, e.details
       FROM screening_entries e JOIN screening_list_versions v ON v.id = e.version_id WHERE e.id = $1`,
    [id],
  );
  if (!entry) return undefined;
  const names = await db.query<{ name: string; alias: boolean; alias_quality: string | null }>(
    `SELECT name, alias, alias_quality FROM screening_names WHERE entry_id = $1 ORDER BY alias, name`,
    [id],
  );
  const addresses = await db.query<{ currency: string; address: string }>(
    `SELECT currency, address FROM screening_addresses WHERE entry_id = $1 ORDER BY currency, address`,
    [id],
  );
  return { ...entry, names, addresses };
}
