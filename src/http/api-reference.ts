/**
 * The interactive API reference (Scalar) with a first paint of its own: the page the server sends
 * already says what it is and links the OpenAPI document, inside the element the reference mounts
 * into, so a reader sees something at once and the reference replaces it once its script has loaded.
 * Without JavaScript the same text stays, with the document to read.
 */
import scalar, { type FastifyApiReferenceOptions } from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import { html } from '../lib/html.ts';

/** The element Scalar's page mounts the reference into, empty as the plugin writes it. */
const MOUNT = '<div id="app"></div>';

export type ReferencePage = {
  routePrefix: `/${string}`;
  /** The heading of the first paint, e.g. "Ponte API reference (sandbox)". */
  heading: string;
  /** The OpenAPI document the reference reads. */
  documentUrl: string;
  /** One line on how to authenticate, shown under the heading. */
  authentication: string;
  configuration: NonNullable<FastifyApiReferenceOptions['configuration']>;
};

export function firstPaint(page: Pick<ReferencePage, 'heading' | 'documentUrl' | 'authentication'>): string {
  return html`<main id="reference-loading" style="font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1f2328">
<h1 style="font-size:1.6rem">${page.heading}</h1>
<p role="status">Loading the interactive reference…</p>
<p>Every operation, its parameters and answers are in the OpenAPI 3.1 document:
<a href="${page.documentUrl}">${page.documentUrl}</a>.</p>
<p>${page.authentication}</p>
<noscript><p>The interactive reference needs JavaScript; the document above describes the same operations.</p></noscript>
</main>`.safe;
}

export async function registerApiReference(app: FastifyInstance, page: ReferencePage): Promise<void> {
  const paint = `<div id="app">${firstPaint(page)}</div>`;
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply, payload) => {
      const type = String(reply.getHeader('content-type') ?? '');
      if (typeof payload !== 'string' || !type.startsWith('text/html')) return payload;
      return payload.replace(MOUNT, paint);
    });
    await scope.register(scalar, { routePrefix: page.routePrefix, configuration: page.configuration });
  });
}
