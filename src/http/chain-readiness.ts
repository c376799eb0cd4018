/**
 * What `/readyz` says of the chain nodes: for each production chain reached through a node, whether the
 * node answers for its latest block within two seconds. The answer is kept five seconds, so that a load
 * balancer polling every listener does not turn into a stream of calls to a paid RPC provider. Only the
 * chain's name is said; its RPC URL (which often carries the provider's key) never is.
 */
import type { ChainRegistry } from '../rails/chains/registry.ts';

const PROBE_TIMEOUT_MS = 2_000;
const KEPT_MS = 5_000;

export type ChainNodesProbe = () => Promise<string[]>;

/**
 * The names of the chains whose node does not answer. Opened once per process (the runtime keeps it in the
 * context), so that the listeners of a process share its answer.
 */
export function chainNodesProbe(chains: ChainRegistry, timeoutMs = PROBE_TIMEOUT_MS): ChainNodesProbe {
  let last: { at: number; down: Promise<string[]> } | null = null;
  const probe = async (): Promise<string[]> => {
    const nodes = chains.all('production').flatMap((adapter) => (adapter.node ? [adapter] : []));
    const answers = await Promise.all(
      nodes.map(async (adapter) =>
        (await answersWithin(() => adapter.node!.head(), timeoutMs)) ? null : adapter.blockchain,
      ),
    );
    return answers.filter((name): name is NonNullable<typeof name> => name !== null);
  };
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= KEPT_MS) last = { at: now, down: probe() };
    return last.down;
  };
}

/** Whether `call` resolves within `timeoutMs`. */
async function answersWithin(call: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      call().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
