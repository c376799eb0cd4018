/**
 * In-process cache of API key lookups, keyed by the key's SHA-256 hash. An entry is trusted for a short
 * TTL (default 500 ms), so a key revoked on any process stops working everywhere within that time; the
 * revoking process drops its own entry at once. A miss only costs one indexed read.
 *
 * Known keys and unknown ones are remembered apart, each bounded, dropping its oldest entries when
 * full: a flood of unknown keys (wellformed guesses) only ever pushes out other unknown keys, never a
 * partner's real key.
 */
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { findActiveApiKeyByHash } from './repo.ts';

export type ResolvedKey = Tenant & { keyId: string };

type Entry = { value: ResolvedKey | null; expiresAt: number };

/** Remembers `set` entries in insertion order; when full, the oldest are dropped first. */
class BoundedMap<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    while (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

export class ApiKeyCache {
  private readonly known: BoundedMap<Entry>;
  private readonly unknown: BoundedMap<Entry>;

  constructor(
    private readonly db: Executor,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    limits: { known: number; unknown: number } = { known: 100_000, unknown: 10_000 },
  ) {
    this.known = new BoundedMap(limits.known);
    this.unknown = new BoundedMap(limits.unknown);
  }

  async resolve(hash: string): Promise<ResolvedKey | null> {
    const cached = this.known.get(hash) ?? this.unknown.get(hash);
    const now = this.now();
    if (cached && cached.expiresAt > now) return cached.value;
    const row = await findActiveApiKeyByHash(this.db, hash);
    const value = row ? { keyId: row.id, projectId: row.project_id, environment: row.environment } : null;
    const entry = { value, expiresAt: now + this.ttlMs };
    if (value) {
      this.unknown.delete(hash);
      this.known.set(hash, entry);
    } else {
      this.known.delete(hash);
      this.unknown.set(hash, entry);
    }
    return value;
  }

  invalidate(hash: string): void {
    this.known.delete(hash);
    this.unknown.delete(hash);
  }
}
