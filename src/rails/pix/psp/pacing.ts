/**
 * Paces the payments one PSP key sends. Efí advises sending one PIX after the previous one's result
 * (dev.efipay.com.br/docs/api-pix/envio-pagamento-pix): at most `concurrency` sends and refunds are
 * under way at once per key (`PONTE_PIX_SEND_CONCURRENCY`, default 4), and a 429 from the PSP holds every
 * new one back, for the PSP's `Retry-After` when it gives one, else for a pause that doubles with each
 * 429 in a row (1 s up to a minute) and is forgotten after an answer that is not a 429.
 */
import pLimit from 'p-limit';
import type { PspAnswer } from './http-client.ts';

const FIRST_PAUSE_MS = 1_000;
const LONGEST_PAUSE_MS = 60_000;

export type SendPacer = {
  run(call: () => Promise<PspAnswer>): Promise<PspAnswer>;
  /** How long new sends are held back from now (0: not held). */
  heldForMs(): number;
};

export function createSendPacer(concurrency: number, now: () => number = Date.now): SendPacer {
  const limit = pLimit(concurrency);
  let resumeAt = 0;
  let pause = 0;
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

  return {
    run: (call) =>
      limit(async () => {
        for (let held = resumeAt - now(); held > 0; held = resumeAt - now()) await wait(held);
        const answer = await call();
        if (answer.status === 429) {
          pause = Math.min(pause === 0 ? FIRST_PAUSE_MS : pause * 2, LONGEST_PAUSE_MS);
          const asked = answer.retryAfterMs;
          resumeAt = Math.max(resumeAt, now() + Math.min(asked ?? pause, LONGEST_PAUSE_MS));
        } else {
          pause = 0;
        }
        return answer;
      }),
    heldForMs: () => Math.max(0, resumeAt - now()),
  };
}
