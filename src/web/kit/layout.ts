/**
 * The frame of every web page: the headers each carries — a strict Content-Security-Policy (own-origin
 * stylesheet and script only, images from this origin or data: URLs for QR codes), no framing, no caching,
 * no referrer — the document around a body, the small page of sign-in and messages, and the shell with
 * its navigation.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type Html, html } from '../../lib/html.ts';
import { SCRIPT, STYLESHEET } from './assets.ts';
import { FAVICON_SVG, FAVICON_TYPE } from './favicon.ts';

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
