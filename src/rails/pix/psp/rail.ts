/**
 * The PIX rail over a real PSP: the Banco Central's API Pix for receiving, refunds and the webhook, and
 * the PSP's send API for payouts (Efí's: API Pix under `/v2`, sends under `/v3/gn/pix`). No answer in
 * time, a refusal to talk or garbage all come back as "retry" or RailUnavailable: nothing here decides
 * what happens to money.
 */
import type { ChargeRequest, PixRail } from '../rail.ts';
import { RailUnavailable } from '../rail.ts';
import { createApiPix } from './api-pix.ts';
import type { PspConfig } from './config.ts';
import { createEfiSend } from './efi-send.ts';
import { createPspHttpClient, type PspHttpClient, type PspObserver, PspUnreachable } from './http-client.ts';
import { createSendPacer } from './pacing.ts';

function retryOf(error: unknown): { retry: string } {
  if (error instanceof PspUnreachable) return { retry: error.message };
  throw error;
}

export function createPspRail(config: PspConfig, observer: PspObserver = {}): PixRail & { close(): void } {
  const http = createPspHttpClient(config, observer);
  // payments out of the key (sends, refunds) go one pace; look-ups and listings are not held back
  const pacer = createSendPacer(config.sendConcurrency);
  const payments: PspHttpClient = { ...http, call: (spec) => pacer.run(() => http.call(spec)) };
  const report = (item: unknown, reason: string) => observer.unreadable?.(item, reason);
  const pix = createApiPix(http, '/v2', payments, report);
  const sends = createEfiSend(http, config.key, payments, report);

  return {
    async registerCharge(charge: ChargeRequest) {
      let answer: Awaited<ReturnType<typeof pix.putCob>>;
      try {
        answer = await pix.putCob(charge, config.key);
      } catch (error) {
        throw new RailUnavailable(retryOf(error).retry);
      }
      if ('brCode' in answer) return answer;
      throw new RailUnavailable('refused' in answer ? answer.refused : answer.retry);
    },
    async withdrawCharge(txid) {
      try {
        await pix.withdrawCob(txid);
      } catch (error) {
        throw new RailUnavailable(retryOf(error).retry);
      }
    },
    confirmPayment: (e2eid) => pix.getPix(e2eid).catch(retryOf),
    listReceived: (from, to) => pix.listPix(from, to),
    refund: (e2eid, id, amount) => pix.putDevolucao(e2eid, id, amount).catch(retryOf),
    lookUpRefund: (e2eid, id) => pix.getDevolucao(e2eid, id).catch(retryOf),
    send: (order) => sends.send(order).catch(retryOf),
    lookUpSend: (sendId) => sends.lookUp(sendId).catch(retryOf),
    listSent: (from, to) => sends.list(from, to),
    registerWebhook: () => pix.putWebhook(config.key, config.webhookUrl.href),
    webhook: () => pix.getWebhook(config.key),
    close: () => http.close(),
  };
}
