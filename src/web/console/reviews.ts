/**
 * The review queues: limit requests (supporting document inline), verifications (documents submitted on
 * the hosted page) and third-party bank account holders, each with the decisions the operator API takes,
 * through the same services (which audit every decision).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { StringEnum } from '../../http/schemas.ts';
import { createHolderReviewService } from '../../modules/bank-accounts/holder-review.ts';
import { HOLDER_REVIEW_OUTCOMES } from '../../modules/bank-accounts/holder-state.ts';
import { createOperatorDocumentService } from '../../modules/documents/service.ts';
import { REVIEW_DECISION_NAMES, type ReviewDecision } from '../../modules/limit-requests/review.ts';
import { createLimitReviewService } from '../../modules/limit-requests/review-service.ts';
import {
  createVerificationReviewService,
  REVIEW_OUTCOMES,
} from '../../modules/verification-review/review.ts';
import { webActor } from '../../modules/web-users/service.ts';
import { pageOf } from '../dashboard/render.ts';
import { badge, csrfField, dateTime, type Html, html, notice, pager, table } from '../html.ts';
import { sendConsole } from './frame.ts';
import { kybSections } from './ownership.ts';

const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 64 })) };
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const QueueQuery = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 30 })),
  page: Type.Optional(Type.String({ maxLength: 7 })),
  done: Type.Optional(Type.String({ maxLength: 20 })),
});
const dash = (value: string | null) => value ?? '—';
const DONE = 'Decision recorded.';

type Doc = { id: string; type: string; contentType: string; fileName?: string | null };

function inlineDocument(doc: Doc): Html {
  const src = `/console/documents/${doc.id}/content`;
  const label = `${doc.type.replaceAll('_', ' ')}`;
  return html`<figure class="panel"><figcaption><strong>${label}</strong> · <a href="${src}">Open</a></figcaption>
${
  doc.contentType === 'application/pdf'
    ? html`<iframe class="doc" src="${src}" title="${label}"></iframe>`
    : html`<img class="doc" src="${src}" alt="${label}">`
}</figure>`;
}

export function registerReviewPages(app: FastifyInstance, ctx: AppContext) {
  const limitReview = createLimitReviewService(ctx);
  const verificationReview = createVerificationReviewService(ctx);
  const holderReview = createHolderReviewService(ctx);
  const documents = createOperatorDocumentService(ctx);

  app.get('/console', async (_request, reply) => reply.redirect('/console/reviews/limit-requests', 303));

  app.get('/console/documents/:id/content', { schema: { params: IdParams } }, async (request, reply) => {
    const file = await documents.content((request.params as { id: string }).id);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', 'inline')
      .header('content-security-policy', "default-src 'none'; frame-ancestors 'self'; sandbox")
      .header('x-frame-options', 'SAMEORIGIN')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(file.content);
  });

  // ---- Limit requests
  app.get(
    '/console/reviews/limit-requests',
    { schema: { querystring: QueueQuery } },
    async (request, reply) => {
      const query = request.query as { status?: string; page?: string; done?: string };
      const status = query.status || 'IN_REVIEW';
      const queue = await limitReview.queue({ status }, pageOf(query.page));
      const body = html`${notice(query.done ? DONE : undefined)}<p class="hint">Showing ${status.replaceAll('_', ' ')}, oldest first.</p>
${table(
  ['Customer', 'Requested (single / daily / monthly)', 'Project', 'Status', 'Created'],
  queue.data.map(
    (r) => html`<tr><td><a href="/console/reviews/limit-requests/${r.id}">${r.customer.name}</a></td>
<td>${dash(r.requested.single)} / ${dash(r.requested.daily)} / ${dash(r.requested.monthly)}</td>
<td><code>${r.projectId.slice(0, 8)}</code> ${r.environment}</td><td>${badge(r.status)}</td><td>${dateTime(r.createdAt)}</td></tr>`,
  ),
  'Nothing waiting for review.',
)}${pager('/console/reviews/limit-requests', { status: query.status }, queue.pagination.page, queue.pagination.hasNextPage)}`;
      return sendConsole(request, reply, 'Limit requests', body);
    },
  );

  app.get('/console/reviews/limit-requests/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const r = await limitReview.get((request.params as { id: string }).id);
    const csrf = request.session!.csrfToken;
    const body = html`<div class="grid"><section class="panel"><h2>Request</h2><dl>
<dt>Customer</dt><dd>${r.customer.name} (${r.customer.type})</dd><dt>Status</dt><dd>${badge(r.status)}</dd>
<dt>Requested</dt><dd>${dash(r.requested.single)} / ${dash(r.requested.daily)} / ${dash(r.requested.monthly)}</dd>
<dt>In force</dt><dd>${r.limitsInForce.single} / ${r.limitsInForce.daily} / ${r.limitsInForce.monthly}</dd>
<dt>Project</dt><dd><code>${r.projectId}</code> (${r.environment})</dd><dt>Created</dt><dd>${dateTime(r.createdAt)}</dd>
${r.reviewComment ? html`<dt>Comment</dt><dd>${r.reviewComment}</dd>` : html``}</dl></section>
${
  r.status === 'IN_REVIEW'
    ? html`<section class="panel"><h2>Decision</h2><form method="post" action="/console/reviews/limit-requests/${r.id}">${csrfField(csrf)}
<div class="field"><label for="decision">Decision</label><select id="decision" name="decision">${REVIEW_DECISION_NAMES.map((name) => html`<option value="${name}">${name.replaceAll('_', ' ')}</option>`)}</select></div>
<fieldset><legend>Approved amounts <span class="hint">(partial approval only)</span></legend><div class="formrow">
<div class="field"><label for="single">Single</label><input id="single" name="single" inputmode="decimal"></div>
<div class="field"><label for="daily">Daily</label><input id="daily" name="daily" inputmode="decimal"></div>
<div class="field"><label for="monthly">Monthly</label><input id="monthly" name="monthly" inputmode="decimal"></div></div></fieldset>
<div class="field"><label for="reviewComment">Comment <span class="hint">(required to reject or approve partially)</span></label><textarea id="reviewComment" name="reviewComment" maxlength="2000" rows="3"></textarea></div>
<button type="submit">Record decision</button></form></section>`
    : html``
}</div>
<h2>Supporting document</h2>
${r.supportingDocument ? inlineDocument(r.supportingDocument) : html`<p class="empty">No document.</p>`}`;
    return sendConsole(request, reply, `Limit request of ${r.customer.name}`, body);
  });

  app.post(
    '/console/reviews/limit-requests/:id',
    {
      schema: {
        params: IdParams,
        body: Type.Object({
          ...Csrf,
          decision: StringEnum(REVIEW_DECISION_NAMES),
          single: Type.Optional(Type.String({ maxLength: 20 })),
          daily: Type.Optional(Type.String({ maxLength: 20 })),
          monthly: Type.Optional(Type.String({ maxLength: 20 })),
          reviewComment: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
      },
    },
    async (request, reply) => {
      const id = (request.params as { id: string }).id;
      const body = request.body as Record<string, string | undefined>;
      const decision = body.decision as ReviewDecision;
      const amount = (name: string) => body[name]?.trim() || undefined;
      await limitReview.review(webActor(request.session!.user), id, {
        decision,
        approved:
          decision === 'PARTIALLY_APPROVE'
            ? { single: amount('single'), daily: amount('daily'), monthly: amount('monthly') }
            : undefined,
        reviewComment: body.reviewComment?.trim() || undefined,
      });
      return reply.redirect('/console/reviews/limit-requests?done=1', 303);
    },
  );

  // ---- Verifications
  app.get(
    '/console/reviews/verifications',
    { schema: { querystring: QueueQuery } },
    async (request, reply) => {
      const query = request.query as { status?: string; page?: string; done?: string };
      const status = query.status || 'UNDER_VERIFICATION';
      const queue = await verificationReview.queue({ status }, pageOf(query.page));
      const body = html`${notice(query.done ? DONE : undefined)}<p class="hint">Showing ${status.replaceAll('_', ' ')}.</p>
${table(
  ['Customer', 'Tax id', 'Project', 'Status', 'Updated'],
  queue.data.map(
    (
      v,
    ) => html`<tr><td><a href="/console/reviews/verifications/${v.id}">${v.associatedParty ? `${v.associatedParty.name} (${v.associatedParty.role} of ${v.customer.name})` : v.customer.name}</a>${v.missing && v.missing.length > 0 ? html`<br><span class="hint">waiting for ${v.missing.length} item${v.missing.length === 1 ? '' : 's'}</span>` : html``}</td><td><code>${v.customer.taxId}</code></td>
<td><code>${v.projectId.slice(0, 8)}</code> ${v.environment}</td><td>${badge(v.status)}</td><td>${dateTime(v.updatedAt)}</td></tr>`,
  ),
  'Nothing waiting for review.',
)}${pager('/console/reviews/verifications', { status: query.status }, queue.pagination.page, queue.pagination.hasNextPage)}`;
      return sendConsole(request, reply, 'Verifications', body);
    },
  );

  app.get('/console/reviews/verifications/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const v = await verificationReview.get((request.params as { id: string }).id);
    const csrf = request.session!.csrfToken;
    const body = html`<div class="grid"><section class="panel"><h2>Customer</h2><dl>
<dt>Name</dt><dd>${v.customer.name}</dd><dt>Type</dt><dd>${v.customer.type}</dd><dt>Tax id</dt><dd><code>${v.customer.taxId}</code></dd>
<dt>Country</dt><dd>${v.customer.country}</dd><dt>E-mail</dt><dd>${v.customer.email}</dd><dt>Status</dt><dd>${badge(v.status)}</dd></dl></section>
${
  v.status === 'UNDER_VERIFICATION' && !v.reviewApproved
    ? html`<section class="panel"><h2>Decision</h2><form method="post" action="/console/reviews/verifications/${v.id}">${csrfField(csrf)}
<div class="field"><label for="status">Outcome</label><select id="status" name="status">${REVIEW_OUTCOMES.map((o) => html`<option value="${o}">${o.replaceAll('_', ' ')}</option>`)}</select></div>
<div class="field"><label for="rejectLabels">Reject labels <span class="hint">(comma separated, for rejections)</span></label><input id="rejectLabels" name="rejectLabels" maxlength="500"></div>
<button type="submit">Record decision</button></form></section>`
    : html``
}</div>
${kybSections(v)}
<h2>Submitted documents</h2>
${v.documents.length > 0 ? html`<div class="grid">${v.documents.map(inlineDocument)}</div>` : html`<p class="empty">No documents submitted.</p>`}`;
    return sendConsole(request, reply, `Verification of ${v.customer.name}`, body);
  });

  app.post(
    '/console/reviews/verifications/:id',
    {
      schema: {
        params: IdParams,
        body: Type.Object({
          ...Csrf,
          status: StringEnum(REVIEW_OUTCOMES),
          rejectLabels: Type.Optional(Type.String({ maxLength: 500 })),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body as { status: (typeof REVIEW_OUTCOMES)[number]; rejectLabels?: string };
      const labels = (body.rejectLabels ?? '')
        .split(',')
        .map((label) => label.trim())
        .filter(Boolean);
      await verificationReview.review(
        webActor(request.session!.user),
        (request.params as { id: string }).id,
        {
          status: body.status,
          statusReason: labels.length > 0 ? { rejectLabels: labels } : undefined,
        },
      );
      return reply.redirect('/console/reviews/verifications?done=1', 303);
    },
  );

  // ---- Third-party holders
  app.get('/console/reviews/holders', { schema: { querystring: QueueQuery } }, async (request, reply) => {
    const query = request.query as { status?: string; page?: string; done?: string };
    const status = query.status || 'UNDER_VERIFICATION';
    const queue = await holderReview.queue({ status, relationship: 'THIRD_PARTY' }, pageOf(query.page));
    const body = html`${notice(query.done ? DONE : undefined)}
${table(
  ['Holder', 'Tax id', 'PIX key', 'Project', 'Status'],
  queue.data.map(
    (
      a,
    ) => html`<tr><td><a href="/console/reviews/holders/${a.id}">${a.holder.legalName}</a></td><td><code>${a.holder.taxId}</code></td>
<td><code>${a.identifier.keyType} ${a.identifier.keyValue}</code></td><td><code>${a.projectId.slice(0, 8)}</code> ${a.environment}</td><td>${badge(a.holder.verification.status)}</td></tr>`,
  ),
  'Nothing waiting for review.',
)}${pager('/console/reviews/holders', { status: query.status }, queue.pagination.page, queue.pagination.hasNextPage)}`;
    return sendConsole(request, reply, 'Third-party holders', body);
  });

  app.get('/console/reviews/holders/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const a = await holderReview.get((request.params as { id: string }).id);
    const csrf = request.session!.csrfToken;
    const body = html`<div class="grid"><section class="panel"><h2>Holder</h2><dl>
<dt>Legal name</dt><dd>${a.holder.legalName}</dd><dt>Type</dt><dd>${a.holder.type}</dd><dt>Tax id</dt><dd><code>${a.holder.taxId}</code></dd>
<dt>E-mail</dt><dd>${a.holder.email}</dd><dt>Address</dt><dd>${a.holder.address.line1}, ${a.holder.address.city} ${a.holder.address.state} ${a.holder.address.postalCode} ${a.holder.address.country}</dd>
<dt>PIX key</dt><dd><code>${a.identifier.keyType} ${a.identifier.keyValue}</code></dd><dt>Status</dt><dd>${badge(a.holder.verification.status)}</dd></dl></section>
${
  a.holder.verification.status === 'UNDER_VERIFICATION'
    ? html`<section class="panel"><h2>Decision</h2><form method="post" action="/console/reviews/holders/${a.id}">${csrfField(csrf)}
<div class="field"><label for="status">Outcome</label><select id="status" name="status">${HOLDER_REVIEW_OUTCOMES.map((o) => html`<option value="${o}">${o.replaceAll('_', ' ')}</option>`)}</select></div>
<div class="field"><label for="reviewComment">Comment <span class="hint">(required to reject)</span></label><textarea id="reviewComment" name="reviewComment" maxlength="2000" rows="3"></textarea></div>
<button type="submit">Record decision</button></form></section>`
    : html``
}</div>`;
    return sendConsole(request, reply, `Holder ${a.holder.legalName}`, body);
  });

  app.post(
    '/console/reviews/holders/:id',
    {
      schema: {
        params: IdParams,
        body: Type.Object({
          ...Csrf,
          status: StringEnum(HOLDER_REVIEW_OUTCOMES),
          reviewComment: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body as {
        status: (typeof HOLDER_REVIEW_OUTCOMES)[number];
        reviewComment?: string;
      };
      await holderReview.review(webActor(request.session!.user), (request.params as { id: string }).id, body);
      return reply.redirect('/console/reviews/holders?done=1', 303);
    },
  );
}
