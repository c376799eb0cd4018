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
  private readonly pending = new Map<string, Promise<ResolvedKey | null>>();
  /** Moves on at every invalidation, so that a read started before it is not cached after it. */
  private generation = 0;

  constructor(
    private readonly db: Executor,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    limits: { known: number; unknown: number } = { known: 100_000, unknown: 10_000 },
  ) {
    this.known = new BoundedMap(limits.known);
    this.unknown = new BoundedMap(limits.unknown);
  }

  /**
   * The cached answer for this hash while it is fresh (a key, or null for an unknown one), else
   * undefined: the caller then awaits `resolve`. Lets a request with a cached key go on without a promise.
   */
  peek(hash: string): ResolvedKey | null | undefined {
    const cached = this.known.get(hash) ?? this.unknown.get(hash);
    return cached && cached.expiresAt > this.now() ? cached.value : undefined;
  }

  resolve(hash: string): Promise<ResolvedKey | null> {
    const cached = this.peek(hash);
    if (cached !== undefined) return Promise.resolve(cached);
    // One read per hash at a time: when an entry expires under load, every request in flight with that
    // key waits for the same read instead of each sending its own.
    const inFlight = this.pending.get(hash);
    if (inFlight) return inFlight;
    const pending: Promise<ResolvedKey | null> = this.lookup(hash).finally(() => {
      if (this.pending.get(hash) === pending) this.pending.delete(hash);
    });
    this.pending.set(hash, pending);
    return pending;
  }

  private async lookup(hash: string): Promise<ResolvedKey | null> {
    const generation = this.generation;
    const startedAt = this.now();
    const row = await findActiveApiKeyByHash(this.db, hash);
    const value = row ? { keyId: row.id, projectId: row.project_id, environment: row.environment } : null;
    // A key invalidated while its read was in flight may have been read before the revocation committed:
    // answer what was read to the requests already waiting, but do not remember it.
    if (generation !== this.generation) return value;
    const entry = { value, expiresAt: startedAt + this.ttlMs };
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
    this.generation++;
    this.pending.delete(hash);
    this.known.delete(hash);
    this.unknown.delete(hash);
  }
}
