/**
 * A fault-injecting JSON-RPC proxy for tests: an HTTP server on an ephemeral port in front of a node
 * (anvil), forwarding every call unchanged unless a rule set by the test rewrites its answer — an
 * incomplete `eth_getLogs` result, a broadcast the node never receives, a node that is down. Single calls
 * and batches alike.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Hex, keccak256 } from 'viem';

type RpcCall = { jsonrpc: '2.0'; id: unknown; method: string; params?: unknown[] };
type RpcAnswer = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: unknown };

/** A rule sees a call and the node's answer; it returns the answer to give instead, or null to pass. */
type Rule = (call: RpcCall, answer: () => Promise<RpcAnswer>) => Promise<RpcAnswer | null>;

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export type RpcProxy = Awaited<ReturnType<typeof startRpcProxy>>;

export async function startRpcProxy(target: string) {
  const rules: Rule[] = [];
  const calls = new Map<string, number>();
  let droppedLogs = 0;
  let swallowedSends = 0;

  async function forward(call: RpcCall): Promise<RpcAnswer> {
    const response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(call),
    });
    return (await response.json()) as RpcAnswer;
  }

  async function handle(call: RpcCall): Promise<RpcAnswer> {
    calls.set(call.method, (calls.get(call.method) ?? 0) + 1);
    let answered: Promise<RpcAnswer> | undefined;
    const answer = () => {
      answered ??= forward(call);
      return answered;
    };
    for (const rule of [...rules]) {
      const replaced = await rule(call, answer);
      if (replaced) return replaced;
    }
    return answer();
  }

  const server: Server = createServer(async (request, response) => {
    try {
      const parsed = JSON.parse(await body(request)) as RpcCall | RpcCall[];
      const answer = Array.isArray(parsed) ? await Promise.all(parsed.map(handle)) : await handle(parsed);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    } catch (error) {
      response.writeHead(502).end((error as Error).message);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    /** How many times the node was asked `method` through the proxy. */
    calls: (method: string) => calls.get(method) ?? 0,
    get droppedLogs() {
      return droppedLogs;
    },
    get swallowedSends() {
      return swallowedSends;
    },
    /** The next `eth_getLogs` whose true answer holds logs is answered with none (an incomplete answer). */
    dropNextNonEmptyLogs() {
      const rule: Rule = async (call, answer) => {
        if (call.method !== 'eth_getLogs') return null;
        const real = await answer();
        if (!Array.isArray(real.result) || real.result.length === 0) return null;
        rules.splice(rules.indexOf(rule), 1);
        droppedLogs++;
        return { jsonrpc: '2.0', id: call.id, result: [] };
      };
      rules.push(rule);
    },
    /**
     * Until the returned function is called, signed transactions are acknowledged with their hash but
     * never reach the node (a broadcast lost on its way).
     */
    swallowBroadcasts(): () => void {
      const rule: Rule = async (call) => {
        if (call.method !== 'eth_sendRawTransaction') return null;
        swallowedSends++;
        return { jsonrpc: '2.0', id: call.id, result: keccak256((call.params as Hex[])[0]!) };
      };
      rules.push(rule);
      return () => {
        const at = rules.indexOf(rule);
        if (at >= 0) rules.splice(at, 1);
      };
    },
    /**
     * Until the returned function is called, every call is answered with a JSON-RPC server error (a node
     * that is down): nothing reaches the node.
     */
    unavailable(): () => void {
      const rule: Rule = async (call) => ({
        jsonrpc: '2.0',
        id: call.id,
        error: { code: -32000, message: 'the node is unavailable' },
      });
      rules.push(rule);
      return () => {
        const at = rules.indexOf(rule);
        if (at >= 0) rules.splice(at, 1);
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
