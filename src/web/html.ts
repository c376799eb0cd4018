/**
 * HTML for the web interfaces: escaped templates (shared with the hosted page), the page frame, and the
 * headers every page carries — a strict Content-Security-Policy (own-origin stylesheet and script only,
 * images from this origin or data: URLs for QR codes), no framing, no caching, no referrer.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml, type Html, html } from '../modules/hosted-verification/html.ts';
import { SCRIPT, STYLESHEET } from './assets.ts';
import { FAVICON_SVG, FAVICON_TYPE } from './favicon.ts';

export { escapeHtml, type Html, html } from '../modules/hosted-verification/html.ts';

export const WEB_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data:",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function sendHtml(reply: FastifyReply, status: number, page: Html): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', WEB_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .header('cache-control', 'no-store')
    .send(`<!doctype html>\n${page.safe}`);
}

/**
 * Serves the stylesheet, script and icon under `prefix` (e.g. `/assets`); `root` also answers the icon at
 * `/favicon.ico`, where browsers look for it on a listener of its own.
 */
export function registerAssets(app: FastifyInstance, prefix: string, options: { root?: boolean } = {}): void {
  const serve = (path: string, type: string, body: string) =>
    app.get(path, { schema: { hide: true }, config: { access: 'public' } }, async (_request, reply) =>
      reply
        .header('content-type', type)
        .header('cache-control', 'public, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(body),
    );
  serve(`${prefix}/web.css`, 'text/css; charset=utf-8', STYLESHEET);
  serve(`${prefix}/web.js`, 'text/javascript; charset=utf-8', SCRIPT);
  serve(`${prefix}/favicon.svg`, FAVICON_TYPE, FAVICON_SVG);
  if (options.root) serve('/favicon.ico', FAVICON_TYPE, FAVICON_SVG);
}

export function document(title: string, assets: string, body: Html): Html {
  return html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<link rel="icon" href="${assets}/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${assets}/web.css">
<script src="${assets}/web.js" defer></script>
</head>
<body>
${body}
</body>
</html>`;
}

/** A small page for signing in, setting a password, or a message. */
export function authPage(title: string, assets: string, brand: string, body: Html): Html {
  return document(
    `${title} · ${brand}`,
    assets,
    html`<main class="auth" id="main"><p class="brand">${brand}</p><h1>${title}</h1>${body}</main>`,
  );
}

export type NavItem = { href: string; label: string; section?: string };

export function shell(input: {
  title: string;
  assets: string;
  brand: string;
  subtitle: string;
  nav: NavItem[];
  current: string;
  top: Html;
  body: Html;
}): Html {
  let section: string | undefined;
  const items = input.nav.map((item) => {
    const heading =
      item.section && item.section !== section ? html`<li><h2>${item.section}</h2></li>` : html``;
    section = item.section;
    const current = item.href === input.current ? html` aria-current="page"` : html``;
    return html`${heading}<li><a href="${item.href}"${current}>${item.label}</a></li>`;
  });
  return document(
    `${input.title} · ${input.brand}`,
    input.assets,
    html`<a class="skip" href="#main">Skip to content</a>
<div class="shell">
<header class="side">
<p class="brand">${input.brand}</p>
<p class="project">${input.subtitle}</p>
<nav aria-label="Main"><ul>${items}</ul></nav>
</header>
<main class="content" id="main">
${input.top}
<h1>${input.title}</h1>
${input.body}
</main>
</div>`,
  );
}

export const csrfField = (token: string): Html => html`<input type="hidden" name="_csrf" value="${token}">`;

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

/**
 * A table in its frame. Each cell is labelled with its column's heading (`data-label`), which a narrow
 * screen shows beside the value when the rows are stacked as cards.
 */
export function table(headers: string[], rows: Html[], empty: string): Html {
  if (rows.length === 0) return html`<div class="tablewrap"><p class="empty">${empty}</p></div>`;
  const labelled = rows.map((row) => {
    let column = 0;
    const safe = row.safe.replace(/<td(?=[\s>])/g, () => {
      const heading = headers[column++];
      return heading ? `<td data-label="${escapeHtml(heading)}"` : '<td';
    });
    return { safe };
  });
  return html`<div class="tablewrap"><table><thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${labelled}</tbody></table></div>`;
}

/** Previous/next links that keep the other query parameters. */
export function pager(
  path: string,
  query: Record<string, string | undefined>,
  page: number,
  hasNext: boolean,
): Html {
  const link = (to: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
    params.set('page', String(to));
    return `${path}?${params}`;
  };
  if (page <= 1 && !hasNext) return html``;
  return html`<nav class="pager" aria-label="Pages">${when(page > 1, () => html`<a href="${link(page - 1)}">Newer</a>`)}
${when(hasNext, () => html`<a href="${link(page + 1)}">Older</a>`)}</nav>`;
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
