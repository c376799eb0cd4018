/**
 * Server-side keys, derived from the instance's root secret (`db/instance-secrets.ts` finds it): one for
 * signing hosted-page links, one for encrypting secrets that must be read back (webhook signing secrets).
 */
import { createHmac } from 'node:crypto';

export type InstanceKeys = { linkSigning: Buffer; encryption: Buffer };

const derive = (root: Buffer, purpose: string) => createHmac('sha256', root).update(purpose).digest();

export function deriveInstanceKeys(root: Buffer): InstanceKeys {
  return { linkSigning: derive(root, 'verification-link'), encryption: derive(root, 'secret-encryption') };
}
