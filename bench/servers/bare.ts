/**
 * Baseline (a): the cheapest possible HTTP answer on this machine. A bare node:http server that answers
 * every request with the same JSON body, as large as the service's bank-account answer.
 */
import { createServer } from 'node:http';

const port = Number(process.env.BENCH_PORT);
const body = Buffer.from(process.env.BENCH_BODY ?? '{}', 'utf8');
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };

const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
