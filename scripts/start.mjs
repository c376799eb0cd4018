/**
 * `npm start`: runs the compiled service (dist/, built on install) when it is current, that is when no
 * file under src/ changed since the build began; otherwise runs src/ through tsx in this same process,
 * so an edited checkout never runs stale code.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const stamp = `${root}dist/.built`;
if (existsSync(stamp) && statSync(stamp).mtimeMs >= newest(`${root}src`)) {
  await import(new URL('../dist/main.js', import.meta.url).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/main.ts', import.meta.url).href);
}
