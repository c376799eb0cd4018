/**
 * The instance's root secret, from which its server-side keys derive (`lib/instance-keys.ts`): taken from
 * PONTE_INSTANCE_SECRET when set; otherwise generated once per database on first run and shared by every
 * process through the `instance_secrets` table.
 */
import { randomBytes } from 'node:crypto';
import { deriveInstanceKeys, type InstanceKeys } from '../lib/instance-keys.ts';
import type { Database } from './types.ts';

export async function loadInstanceKeys(
  db: Database,
  configured: string | undefined,
  now: Date,
): Promise<InstanceKeys> {
  let root: Buffer;
  if (configured) {
    root = Buffer.from(configured, 'utf8');
  } else {
    const value = randomBytes(32).toString('base64url');
    await db.query(
      `INSERT INTO instance_secrets (name, value, created_at) VALUES ('root', $1, $2) ON CONFLICT (name) DO NOTHING`,
      [value, now],
    );
    const rows = await db.query<{ value: string }>(`SELECT value FROM instance_secrets WHERE name = 'root'`);
    root = Buffer.from(rows[0]!.value, 'base64url');
  }
  return deriveInstanceKeys(root);
}
