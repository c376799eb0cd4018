/**
 * The PSP connection of one environment, read from its variables: `PONTE_PIX_*` for production and the
 * same names prefixed `PONTE_SANDBOX_PIX_*` for the sandbox (a PSP's homologation environment). Without
 * `PONTE_PIX_PSP` (or `PONTE_SANDBOX_PIX_PSP`) there is no PSP: production answers 503 where it would
 * need one and the sandbox simulates the rail.
 */
import { readFileSync } from 'node:fs';

export class PspConfigError extends Error {}

/** The PSP-issued client certificate: a PKCS#12 archive (with its passphrase) or PEM holding both parts. */
export type ClientCertificate =
  | { pfx: Buffer; passphrase: string | undefined }
  | { pem: string; passphrase: string | undefined };

export type PspConfig = {
  psp: 'efi';
  /** The PSP's API address; the adapter knows its paths under it. */
  url: URL;
  clientId: string;
  clientSecret: string;
  certificate: ClientCertificate;
  /** PEM bundle trusted for the PSP's server certificate; undefined: the system's CAs. */
  ca: string | undefined;
  /** The account's PIX key: receiving key of every charge, payer key of every send. */
  key: string;
  /** The public https address registered for the key; the PSP posts to it with `/pix` appended. */
  webhookUrl: URL;
  reconcileEveryMs: number;
  /** The longest one call to the PSP may take, connection to last byte. */
  timeoutMs: number;
  /** How many sends and refunds the key has under way at once (Efí advises one after another's result). */
  sendConcurrency: number;
};

const PSPS = ['efi'] as const;

function readMaterial(name: string, raw: string): Buffer {
  if (raw.trimStart().startsWith('-----BEGIN')) return Buffer.from(raw);
  try {
    return readFileSync(raw);
  } catch {
    throw new PspConfigError(`${name} must be a readable file (or PEM text), got "${raw}"`);
  }
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new PspConfigError(`${name} is required when a PSP is configured`);
  return value;
}

function httpsUrl(name: string, raw: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new PspConfigError(`${name} must be an https URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'https:') throw new PspConfigError(`${name} must be an https URL, got "${raw}"`);
  return parsed;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new PspConfigError(`${name} must be a whole number above 0`);
  return Number(raw);
}

/** `prefix` is `PONTE_PIX_` (production) or `PONTE_SANDBOX_PIX_` (sandbox). */
export function parsePspConfig(env: NodeJS.ProcessEnv, prefix: string): PspConfig | undefined {
  const psp = env[`${prefix}PSP`]?.trim().toLowerCase();
  if (!psp) return undefined;
  if (!(PSPS as readonly string[]).includes(psp)) {
    throw new PspConfigError(`${prefix}PSP must be one of ${PSPS.join(', ')}, got "${psp}"`);
  }
  const certName = `${prefix}CERT`;
  const material = readMaterial(certName, required(env, certName));
  const passphrase = env[`${prefix}CERT_PASSPHRASE`] || undefined;
  const text = material.toString('utf8');
  const certificate: ClientCertificate = text.includes('-----BEGIN')
    ? { pem: text, passphrase }
    : { pfx: material, passphrase };
  if ('pem' in certificate && !/PRIVATE KEY-----/.test(text)) {
    throw new PspConfigError(`${certName} in PEM must hold both the certificate and its private key`);
  }
  const caRaw = env[`${prefix}PSP_CA`]?.trim();
  const webhookName = `${prefix}WEBHOOK_URL`;
  return {
    psp: psp as PspConfig['psp'],
    url: httpsUrl(`${prefix}PSP_URL`, required(env, `${prefix}PSP_URL`)),
    clientId: required(env, `${prefix}CLIENT_ID`),
    clientSecret: required(env, `${prefix}CLIENT_SECRET`),
    certificate,
    ca: caRaw ? readMaterial(`${prefix}PSP_CA`, caRaw).toString('utf8') : undefined,
    key: required(env, `${prefix}KEY`),
    webhookUrl: httpsUrl(webhookName, required(env, webhookName)),
    reconcileEveryMs: wholeNumber(env, `${prefix}RECONCILE_EVERY_MS`, 60_000),
    timeoutMs: wholeNumber(env, `${prefix}PSP_TIMEOUT_MS`, 10_000),
    sendConcurrency: wholeNumber(env, `${prefix}SEND_CONCURRENCY`, 4),
  };
}
