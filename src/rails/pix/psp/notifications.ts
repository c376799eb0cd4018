/**
 * PSP notifications are hints, never the truth. Each item names a PIX (`endToEndId`) or one of Ponte's
 * sends (`gnExtras.idEnvio`, Efí); Ponte credits nothing from the body but asks the PSP itself, over its
 * own authenticated connection, and hands what the PSP confirms to the registered handlers, which apply
 * each payment once. A forged item names a PIX the PSP does not have, or one already applied: nothing
 * changes. A hint the PSP cannot confirm right now is left to the reconciliation sweep.
 */
import type { Environment } from '../../../lib/environment.ts';
import type { PixRail } from '../rail.ts';
import type { PixRails } from '../registry.ts';
import { refusalOf } from './efi-send.ts';

const E2E = /^[A-Za-z0-9]{32}$/;
const SEND_ID = /^[A-Za-z0-9]{1,35}$/;
/** Beyond this many confirmations under way, new hints are left to the sweep (a flood costs nothing). */
const MAX_IN_FLIGHT = 512;
/** The unreadable items of one notification that are kept; the rest are only counted. */
const KEPT_PER_NOTIFICATION = 10;

/**
 * What a notification item points at. A send's item may carry Efí's reason for not making it
 * (`gnExtras.erro.motivo`); the status itself is always the PSP's answer to Ponte's own look-up.
 */
type Hint = { kind: 'pix'; endToEndId: string } | { kind: 'send'; sendId: string; reason: string | null };

export function readHint(item: unknown): Hint | string {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return 'an item must be an object';
  const value = item as { endToEndId?: unknown; gnExtras?: { idEnvio?: unknown } };
  const sendId = value.gnExtras?.idEnvio;
  if (typeof sendId === 'string' && SEND_ID.test(sendId))
    return { kind: 'send', sendId, reason: refusalOf(item) };
  if (typeof value.endToEndId === 'string' && E2E.test(value.endToEndId)) {
    return { kind: 'pix', endToEndId: value.endToEndId };
  }
  return 'no endToEndId of 32 letters and digits';
}

async function confirm(rails: PixRails, rail: PixRail, environment: Environment, hint: Hint): Promise<void> {
  const handlers = rails.handlers();
  if (!handlers) return;
  let sendId = hint.kind === 'send' ? hint.sendId : null;
  if (hint.kind === 'pix') {
    const found = await rail.confirmPayment(hint.endToEndId);
    if ('state' in found) {
      await handlers.received(environment, found.state);
      return;
    }
    if ('retry' in found) return;
    // not a PIX the account received: perhaps the end-to-end id of one of its sends
    sendId = await handlers.sendIdOf(environment, hint.endToEndId);
  }
  if (!sendId) return;
  const send = await rail.lookUpSend(sendId);
  if (!('state' in send)) return;
  const said = hint.kind === 'send' ? hint.reason : null;
  const state =
    said && send.state.status === 'NAO_REALIZADO' && !send.state.reason
      ? { ...send.state, reason: said }
      : send.state;
  await handlers.sent(environment, state);
}

/** Takes a notification's items: each is confirmed with the PSP in the background. */
export function acceptNotification(rails: PixRails, environment: Environment, items: unknown[]): void {
  const rail = rails.psp(environment);
  const handlers = rails.handlers();
  if (!rail || !handlers) return;
  const seen = new Set<string>();
  const hints: Hint[] = [];
  let unreadable = 0;
  for (const item of items) {
    const hint = readHint(item);
    if (typeof hint === 'string') {
      if (++unreadable <= KEPT_PER_NOTIFICATION) {
        rails.track(handlers.unreadable(environment, item, hint, 'notification'));
      }
      continue;
    }
    const key = hint.kind === 'pix' ? hint.endToEndId : `send:${hint.sendId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    hints.push(hint);
  }
  if (hints.length === 0 || rails.inFlight() >= MAX_IN_FLIGHT) return;
  rails.track(
    (async () => {
      for (const hint of hints) {
        try {
          await confirm(rails, rail, environment, hint);
        } catch (error) {
          const about = hint.kind === 'pix' ? { endToEndId: hint.endToEndId } : { sendId: hint.sendId };
          rails.log.warn(
            { reason: (error as Error).message, ...about },
            'PIX notification not confirmed; the sweep applies it',
          );
        }
      }
    })(),
  );
}
