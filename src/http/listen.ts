/**
 * Where a listener binds, from the URL it is configured with. `localhost` means loopback only (every
 * loopback address, IPv4 and IPv6): an operator API configured as `http://localhost:8090` must not be
 * reachable from another machine. To listen on every interface, name it: `http://0.0.0.0:8080` or
 * `http://[::]:8080`.
 */
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:net';

export function listenOptions(url: URL): { port: number; host: string } {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { port, host };
}

/** A listener that cannot bind its address, named by the variable that configures it. */
export class ListenError extends Error {
  constructor(
    readonly variable: string,
    readonly url: URL,
    readonly reason: string,
  ) {
    const { port, host } = listenOptions(url);
    const what =
      reason === 'EADDRINUSE'
        ? `port ${port} is in use`
        : reason === 'EACCES'
          ? `port ${port} needs privileges this process lacks`
          : reason === 'EADDRNOTAVAIL' || reason === 'ENOTFOUND'
            ? `${host} is not an address of this machine`
            : `${url.origin} cannot be listened on (${reason})`;
    super(`${what}: set ${variable} to another address`);
    this.name = 'ListenError';
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
}

async function bindAndRelease(host: string, port: number): Promise<void> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => resolve());
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Checks that every configured listener can bind its address (each address its host name resolves to,
 * as the server binds them), so a process that cannot serve stops before it creates or shows anything.
 */
export async function checkListenable(listeners: { variable: string; url: URL }[]): Promise<void> {
  for (const { variable, url } of listeners) {
    const { host, port } = listenOptions(url);
    let addresses: string[];
    try {
      addresses = (await lookup(host, { all: true })).map((entry) => entry.address);
    } catch (error) {
      throw new ListenError(variable, url, errorCode(error));
    }
    for (const address of addresses) {
      try {
        await bindAndRelease(address, port);
      } catch (error) {
        throw new ListenError(variable, url, errorCode(error));
      }
    }
  }
}
