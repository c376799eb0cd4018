/**
 * In-process cache of API key lookups, keyed by the key's SHA-256 hash. An entry is trusted for a short
 * TTL (default 500 ms), so a key revoked on any process stops working everywhere within that time; the
 * revoking process drops its own entry at once. A miss only costs one indexed read.
 */
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { findActiveApiKeyByHash } from './repo.ts';

export type ResolvedKey = Tenant & { keyId: string };

type Entry = { value: ResolvedKey | null; expiresAt: number };

export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries = 10_000;

  constructor(
    private readonly db: Executor,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async resolve(hash: string): Promise<ResolvedKey | null> {
    const cached = this.entries.get(hash);
    const now = this.now();
    if (cached && cached.expiresAt > now) return cached.value;
    const row = await findActiveApiKeyByHash(this.db, hash);
    const value = row ? { keyId: row.id, projectId: row.project_id, environment: row.environment } : null;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(hash, { value, expiresAt: now + this.ttlMs });
    return value;
  }

  invalidate(hash: string): void {
    this.entries.delete(hash);
  }
}
