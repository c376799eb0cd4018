/**
 * Passwords (argon2id, OWASP's parameters: 19 MiB, 2 passes) and TOTP second factors (RFC 6238 through
 * otplib; the secret kept encrypted under the instance key, bound to its user).
 */
import { hash, verify } from '@node-rs/argon2';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import { decryptSecret, encryptSecret } from '../../lib/sealed.ts';

const ARGON2ID = 2;
const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < PASSWORD_MIN) return `must be at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  if (password.toLowerCase() === email.toLowerCase()) return 'must not be your e-mail address';
  return null;
}

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2_OPTIONS);

/** A hash computed once, so that an unknown account costs as much time as a known one. */
let decoy: Promise<string> | undefined;

export async function checkPassword(stored: string | null, password: string): Promise<boolean> {
  if (password.length > PASSWORD_MAX) return false;
  if (!stored) {
    decoy ??= hashPassword('decoy password that never matches');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

export const newTotpSecret = (): string => generateSecret();

export const totpUri = (secret: string, email: string): string =>
  generateURI({ issuer: 'Ponte', label: email, secret });

/** The time step a code matches (within one step of now), or null when it matches none. */
export async function totpStep(secret: string, code: string): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verifyTotp({ secret, token: code, epochTolerance: 30 });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

export const sealTotpSecret = (key: Buffer, secret: string, userId: string): string =>
  encryptSecret(key, secret, `totp:${userId}`);

export const openTotpSecret = (key: Buffer, sealed: string, userId: string): string =>
  decryptSecret(key, sealed, `totp:${userId}`);
