/**
 * Server-side keys: one for signing hosted-page links, one for encrypting secrets that must be read back
 * (webhook signing secrets). Taken from PONTE_INSTANCE_SECRET when set; otherwise generated once per
 * database on first run and shared by every process through the `instance_secrets` table.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Database } from '../db/types.ts';

export type InstanceKeys = { linkSigning: Buffer; encryption: Buffer };

const derive = (root: Buffer, purpose: string) => createHmac('sha256', root).update(purpose).digest();

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
  return { linkSigning: derive(root, 'verification-link'), encryption: derive(root, 'secret-encryption') };
}
