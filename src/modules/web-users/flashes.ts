/**
 * Shown once, after a redirect (Post/Redirect/Get): a form that creates a secret — an API key, a webhook
 * signing secret, an invitation link — stores what to show as a flash and redirects to its page with the
 * flash's id; that page takes the flash (read and deleted in one statement) and shows it. A reload, Back or
 * a copied address shows nothing again and creates nothing. The secret never travels in an address: the id
 * names a row that only the session that made it can take, sealed under the instance key (bound to its id,
 * session and kind), and gone after ten minutes or with the session.
 */
import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import type { Executor } from '../../db/types.ts';
import { decryptSecret, encryptSecret } from '../../lib/sealed.ts';
import * as repo from './repo.ts';
import type { Session } from './sessions.ts';

export const FLASH_TTL_MS = 10 * 60_000;

/** What a page shows once, by kind: each kind is read back only by the page that asks for it. */
export type FlashKind = 'api-key' | 'webhook-secret' | 'invitation';
export type FlashValue = Record<string, string | null>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const label = (id: string, session: Session, kind: FlashKind) =>
  `web-flash:${kind}:${id}:${session.tokenHash}`;

export function createFlashes(deps: { db: Executor; clock: Clock; encryptionKey: Buffer }) {
  const { db, clock, encryptionKey } = deps;

  /** Stores a value for the session's next page; answers the id the redirect carries. */
  async function put(session: Session, kind: FlashKind, value: FlashValue): Promise<string> {
    const id = newId();
    await repo.insertFlash(db, {
      id,
      session_hash: session.tokenHash,
      kind,
      sealed: encryptSecret(encryptionKey, JSON.stringify(value), label(id, session, kind)),
      expires_at: new Date(clock().getTime() + FLASH_TTL_MS),
    });
    return id;
  }

  /** The value once: null when the id is not the session's, is of another kind, has expired or was shown. */
  async function take(session: Session, kind: FlashKind, id: unknown): Promise<FlashValue | null> {
    if (typeof id !== 'string' || !UUID.test(id)) return null;
    const sealed = await repo.takeFlash(db, id, session.tokenHash, kind, clock());
    if (sealed === undefined) return null;
    return JSON.parse(decryptSecret(encryptionKey, sealed, label(id, session, kind))) as FlashValue;
  }

  return { put, take };
}

export type Flashes = ReturnType<typeof createFlashes>;
