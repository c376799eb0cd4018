/**
 * What the review queues of the console share: the queue's query, the decision notice, and a submitted
 * document shown inline (PDF in a frame, images as images) beside the decision form.
 */
import { Type } from 'typebox';
import { type Html, html } from '../../../lib/html.ts';

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const QueueQuery = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 30 })),
  page: Type.Optional(Type.String({ maxLength: 7 })),
  done: Type.Optional(Type.String({ maxLength: 20 })),
});
export const dash = (value: string | null) => value ?? '—';
export const DONE = 'Decision recorded.';

type Doc = { id: string; type: string; contentType: string; fileName?: string | null };

export function inlineDocument(doc: Doc): Html {
  const src = `/console/documents/${doc.id}/content`;
  const label = `${doc.type.replaceAll('_', ' ')}`;
  return html`<figure class="panel"><figcaption><strong>${label}</strong> · <a href="${src}">Open</a></figcaption>
${
  doc.contentType === 'application/pdf'
    ? html`<iframe class="doc" src="${src}" title="${label}"></iframe>`
    : html`<img class="doc" src="${src}" alt="${label}">`
}</figure>`;
}
