/**
 * Reading a backup file without holding it in memory: `checkBackupFile` finds the manifest on the last
 * line and checks the sha256 of every byte before it, streaming; `backupLines` then yields the body's
 * lines one at a time. A file of any size is read with a few megabytes of memory.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { BACKUP_FORMAT, type Manifest } from './format.ts';

/** Why a file is not a whole Ponte backup; `message` says it to an operator. */
export class BadBackupFile extends Error {}

/** The manifest line is short; the tail read to find it is more than enough. */
const TAIL = 64 * 1024;

export type CheckedBackup = { manifest: Manifest; bodyBytes: number };

export async function checkBackupFile(path: string): Promise<CheckedBackup> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new BadBackupFile(`cannot read ${path}: ${(error as Error).message}`);
  }
  let tail: string;
  let size: number;
  try {
    size = (await handle.stat()).size;
    const length = Math.min(size, TAIL);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    tail = buffer.toString('utf8');
  } finally {
    await handle.close();
  }
  const incomplete = () =>
    new BadBackupFile(`${path} has no manifest: the backup is incomplete (cut short) or not a Ponte backup`);
  if (!tail.endsWith('\n')) throw incomplete();
  const start = tail.lastIndexOf('\n', tail.length - 2) + 1;
  let manifest: Manifest | undefined;
  try {
    manifest = (JSON.parse(tail.slice(start)) as { manifest?: Manifest }).manifest;
  } catch {
    manifest = undefined;
  }
  if (!manifest || start === 0) throw incomplete();
  if (manifest.format !== BACKUP_FORMAT)
    throw new BadBackupFile(`${path} is in format ${manifest.format}, not ${BACKUP_FORMAT}`);
  const bodyBytes = size - Buffer.byteLength(tail.slice(start), 'utf8');
  const hash = createHash('sha256');
  if (bodyBytes > 0)
    for await (const chunk of createReadStream(path, { end: bodyBytes - 1 })) hash.update(chunk);
  if (hash.digest('hex') !== manifest.sha256)
    throw new BadBackupFile(`${path} is corrupt: its checksum does not match its manifest`);
  return { manifest, bodyBytes };
}

/** The body's lines (the manifest left out), read as a stream. */
export async function* backupLines(path: string, { bodyBytes }: CheckedBackup): AsyncGenerator<string> {
  if (bodyBytes === 0) return;
  const lines = createInterface({
    input: createReadStream(path, { end: bodyBytes - 1 }),
    crlfDelay: Infinity,
  });
  for await (const line of lines) if (line) yield line;
}
