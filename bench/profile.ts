/**
 * Reads a V8 CPU profile (written by `BENCH_PROFILE=<dir>`) and prints where the server spent its time:
 * self time per package (or per file of src/), and the functions with the most self time.
 *
 *   npx tsx bench/profile.ts <file.cpuprofile>
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { table } from './report.ts';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
};

type Profile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };

/**
 * Periods (monotonic clock, microseconds, the clock V8 stamps its samples with) when the profiled server
 * was under measured load; when any are recorded, only samples taken within them are counted, so start-up
 * and idle time between runs stay out of the summary.
 */
export const loadWindows: [number, number][] = [];

export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

function group(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/((?:src|bench)\/.+)$/.exec(url);
  return own ? own[1]! : url;
}

/** Samples per node, only those taken within the load windows when there are any. */
function hitsPerNode(profile: Profile, windows: [number, number][]): Map<number, number> {
  const hits = new Map<number, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (windows.length > 0 && !windows.some(([from, to]) => at >= from && at <= to)) continue;
    const id = profile.samples[i]!;
    hits.set(id, (hits.get(id) ?? 0) + 1);
  }
  return hits;
}

export function summariseProfile(path: string, windows: [number, number][] = [], top = 25): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const hits = hitsPerNode(profile, windows);
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const total = [...hits.values()].reduce((a, b) => a + b, 0);
  const key = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    return `${functionName || '(anonymous)'}  ${group(url, functionName)}:${lineNumber + 1}`;
  };
  const byGroup = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, count] of hits) {
    const node = nodes.get(id)!;
    const where = group(node.callFrame.url, node.callFrame.functionName);
    byGroup.set(where, (byGroup.get(where) ?? 0) + count);
    byFunction.set(key(node), (byFunction.get(key(node)) ?? 0) + count);
  }
  // Inclusive time of the service's own functions (each synchronous slice: a hook, a presenter, ...).
  const inclusive = new Map<string, number>();
  const visit = (id: number, open: Set<string>): number => {
    const node = nodes.get(id)!;
    let sum = hits.get(id) ?? 0;
    const name = key(node);
    const own = /^\S.* {2}src\//.test(name) && !open.has(name);
    if (own) open.add(name);
    for (const child of node.children ?? []) sum += visit(child, open);
    if (own) {
      open.delete(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + sum);
    }
    return sum;
  };
  visit(profile.nodes[0]!.id, new Set());

  const idle = byGroup.get('(idle)') ?? 0;
  const busy = Math.max(total - idle, 1);
  const share = (count: number) => `${((count / Math.max(total, 1)) * 100).toFixed(1)}%`;
  const rows = (map: Map<string, number>) =>
    [...map]
      .filter(([name]) => !name.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, count]) => [name, share(count), `${((count / busy) * 100).toFixed(1)}%`]);
  return [
    `CPU profile ${path}: ${total} samples${windows.length ? ' taken under measured load' : ''}, ` +
      `${share(total - idle)} busy ("of busy" leaves out idle time)`,
    '',
    table(['self time by package / file', 'of all', 'of busy'], rows(byGroup)),
    '',
    table(['function (self time)', 'of all', 'of busy'], rows(byFunction)),
    '',
    table(['src/ function (inclusive time)', 'of all', 'of busy'], rows(inclusive)),
  ].join('\n');
}

const busySamples = (path: string) => {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  return profile.nodes
    .filter((node) => node.callFrame.functionName !== '(idle)')
    .reduce((acc, node) => acc + (node.hitCount ?? 0), 0);
};

/**
 * The main thread's profile among those written in `dir` since `since` (each thread writes its own; the
 * module loader's thread is mostly idle once the server has started).
 */
export function mainThreadProfile(dir: string, since: number): string | undefined {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).mtimeMs >= since);
  return files.map((path) => ({ path, busy: busySamples(path) })).sort((a, b) => b.busy - a.busy)[0]?.path;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: npx tsx bench/profile.ts <file.cpuprofile>\n');
    process.exit(2);
  }
  process.stdout.write(`${summariseProfile(file)}\n`);
}
