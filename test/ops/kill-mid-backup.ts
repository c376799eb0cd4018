/**
 * Loaded into `npm run backup` (`node --import`) by the backup tests: the process kills itself with SIGKILL
 * right after its first write to the copy (the file it opens as `*.partial`), so the copy is cut half way at
 * a moment the test does not have to catch. Nothing of this is in the command's own code.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const copies = new Set<number>();
const open = fs.openSync;
fs.openSync = ((path: fs.PathLike, ...rest: unknown[]) => {
  const fd = (open as (...args: unknown[]) => number)(path, ...rest);
  if (String(path).endsWith('.partial')) copies.add(fd);
  return fd;
}) as typeof fs.openSync;
const write = fs.writeSync;
fs.writeSync = ((fd: number, ...rest: unknown[]) => {
  const written = (write as (...args: unknown[]) => number)(fd, ...rest);
  if (copies.has(fd) && written > 0) process.kill(process.pid, 'SIGKILL');
  return written;
}) as typeof fs.writeSync;
syncBuiltinESMExports();
