/**
 * Servers under load run as their own processes, so the load generator in this process never shares an
 * event loop with them. Each child is started with tsx, waited for over HTTP, and stopped by its own pid
 * (SIGTERM, then SIGKILL after a grace period); whatever it printed is kept for error reports.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export type Child = {
  name: string;
  process: ChildProcess;
  /** The last lines the child wrote to stdout and stderr. */
  output(): string;
  /** How the child ended, when it ended on its own (or was ended by someone else) before stop(). */
  exit(): string | null;
  stop(): Promise<void>;
};

const running = new Set<Child>();

// A benchmark stopped abruptly must not leave its servers behind.
process.on('exit', () => {
  for (const child of running) child.process.kill('SIGKILL');
});

const handedOut = new Set<number>();

const listenOnAnyPort = () =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });

/**
 * Loopback ports nobody is listening on right now, distinct from one another and from every port this
 * process handed out before (a server started earlier may not have bound its port yet).
 */
export async function freePorts(count: number): Promise<number[]> {
  const held: Server[] = [];
  const ports: number[] = [];
  while (ports.length < count) {
    const server = await listenOnAnyPort();
    held.push(server);
    const { port } = server.address() as AddressInfo;
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    ports.push(port);
  }
  await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** Starts `node --import tsx <script>`; with `profileDir`, V8 writes a CPU profile there when it exits. */
export function startChild(name: string, script: string, env: NodeJS.ProcessEnv, profileDir?: string): Child {
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  return startProgram(name, process.execPath, [...profile, '--import', 'tsx', script], env);
}

/** Starts any program (a pooler, a load balancer) the same way, stopped the same way. */
export function startProgram(name: string, file: string, args: string[], env: NodeJS.ProcessEnv = {}): Child {
  const child = spawn(file, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let ended: string | null = null;
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      if (!stopping) ended = signal ? `killed by ${signal}` : `exited with code ${code}`;
      resolve();
    }),
  );
  const handle: Child = {
    name,
    process: child,
    output: () => lines.join('\n'),
    exit: () => ended,
    async stop() {
      stopping = true;
      running.delete(handle);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(handle);
  return handle;
}

/** Waits until `url` answers 200, failing early if the child exits or after `timeoutMs`. */
export async function waitUntilReady(child: Child, url: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.process.exitCode !== null) {
      throw new Error(`${child.name} exited with ${child.process.exitCode}:\n${child.output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      throw new Error(`${child.name} not ready at ${url} within ${timeoutMs} ms:\n${child.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop()));
}
