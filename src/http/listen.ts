/**
 * Where a listener binds, from the URL it is configured with. `localhost` means loopback only (every
 * loopback address, IPv4 and IPv6): an operator API configured as `http://localhost:8090` must not be
 * reachable from another machine. To listen on every interface, name it: `http://0.0.0.0:8080` or
 * `http://[::]:8080`.
 */
export function listenOptions(url: URL): { port: number; host: string } {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { port, host };
}
