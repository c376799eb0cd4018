/** Small fragments every page uses: a conditional part, a time, a status badge, a notice, ids and secrets. */
import { type Html, html } from '../../lib/html.ts';

export function when(condition: unknown, fragment: () => Html): Html {
  return condition ? fragment() : html``;
}

export const dateTime = (iso: string | null | undefined): Html =>
  iso ? html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC')}</time>` : html`—`;

const GOOD = new Set(['APPROVED', 'SUCCESS', 'DELIVERED', 'ACTIVE', 'active', 'ENABLED']);
const BAD = new Set(['FINAL_REJECTION', 'REJECTED', 'FAILED', 'EXPIRED', 'DISABLED', 'revoked', 'REFUNDED']);
const WARN = new Set([
  'TEMPORARY_REJECTION',
  'IN_REVIEW',
  'UNDER_VERIFICATION',
  'PENDING',
  'AWAITING_FUNDS',
  'PARTIALLY_APPROVED',
  'invited',
  'PROCESSING',
]);

export function badge(status: string): Html {
  const tone = GOOD.has(status) ? ' ok' : BAD.has(status) ? ' bad' : WARN.has(status) ? ' warn' : '';
  return html`<span class="badge${tone}">${status.replaceAll('_', ' ')}</span>`;
}

export function notice(message: string | undefined, tone: 'ok' | 'error' = 'ok'): Html {
  if (!message) return html``;
  return html`<div class="notice${tone === 'error' ? ' error' : ''}" role="${tone === 'error' ? 'alert' : 'status'}">${message}</div>`;
}

/**
 * An id shown whole (UUIDv7 ids share their first characters, so a prefix tells rows apart poorly), in
 * monospace, linked when `href` is given, with a button that copies it.
 */
export function idCell(id: string, href?: string): Html {
  const code = html`<code class="id" id="id-${id}">${id}</code>`;
  return html`<span class="idcell">${href ? html`<a href="${href}">${code}</a>` : code}<button type="button" class="copy secondary" data-copy="id-${id}" aria-label="Copy id ${id}">Copy</button></span>`;
}

/** A secret shown once, with a button that copies it. */
export function secretBox(id: string, label: string, value: string): Html {
  return html`<div class="panel"><p><strong>${label}</strong> It is shown only now: store it somewhere safe.</p>
<div class="secret"><code id="${id}">${value}</code><button type="button" class="secondary" data-copy="${id}">Copy</button></div></div>`;
}

/** A field's own error, under its input (which names it with `aria-describedby="{id}-error"`). */
export function fieldError(id: string, message: string | undefined): Html {
  return message ? html`<p class="fielderror" id="${id}-error">${message}</p>` : html``;
}

/** The attributes of an input whose value was refused: marked invalid, described by its error. */
export function invalidAttrs(id: string, message: string | undefined): Html {
  return message ? html` aria-invalid="true" aria-describedby="${id}-error"` : html``;
}

/** What a page shows when the address names a secret already shown (a reload, Back, a copied address). */
export const shownOnce = (what: string): Html =>
  notice(`The ${what} was shown once, when it was created, and cannot be shown again.`);

/**
 * An e-mail address kept whole: where a line must break, it breaks before the "@" (and, on a screen too
 * narrow for a part, within that part), never elsewhere mid-address.
 */
export function emailIdent(email: string | null | undefined): Html {
  if (!email) return html`—`;
  const at = email.lastIndexOf('@');
  if (at <= 0) return html`<span class="ident" data-ident="email">${email}</span>`;
  return html`<span class="ident" data-ident="email"><span>${email.slice(0, at)}</span><wbr><span>${email.slice(at)}</span></span>`;
}
