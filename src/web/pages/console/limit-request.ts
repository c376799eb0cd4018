/** A limit request under review: what is asked, what is in force, the supporting document, the decision. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { StringEnum } from '../../../http/schemas.ts';
import { type Html, html } from '../../../lib/html.ts';
import { REVIEW_DECISION_NAMES } from '../../../modules/limit-requests/review.ts';
import { createLimitReviewService } from '../../../modules/limit-requests/review-service.ts';
import { webActor } from '../../../modules/web-users/service.ts';
import { CsrfField, csrfField } from '../../kit/csrf.ts';
import { badge, dateTime } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { sendConsole } from './frame.ts';
import { dash, IdParams, inlineDocument } from './reviews.ts';

export const schema = { params: IdParams };

type LimitReview = ReturnType<typeof createLimitReviewService>;

export const load = (limitReview: LimitReview, id: string) => limitReview.get(id);

export function view(csrf: string, r: Awaited<ReturnType<typeof load>>): Html {
  return html`<div class="grid"><section class="panel"><h2>Request</h2><dl>
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
}

export function register(app: WebApp, ctx: AppContext) {
  const limitReview = createLimitReviewService(ctx);

  app.get('/console/reviews/limit-requests/:id', { schema }, async (request, reply) => {
    const r = await load(limitReview, request.params.id);
    return sendConsole(
      request,
      reply,
      `Limit request of ${r.customer.name}`,
      view(request.session!.csrfToken, r),
    );
  });

  app.post(
    '/console/reviews/limit-requests/:id',
    {
      schema: {
        ...schema,
        body: Type.Object({
          ...CsrfField,
          decision: StringEnum(REVIEW_DECISION_NAMES),
          single: Type.Optional(Type.String({ maxLength: 20 })),
          daily: Type.Optional(Type.String({ maxLength: 20 })),
          monthly: Type.Optional(Type.String({ maxLength: 20 })),
          reviewComment: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
      },
    },
    async (request, reply) => {
      const { body } = request;
      const { decision } = body;
      const amount = (name: 'single' | 'daily' | 'monthly') => body[name]?.trim() || undefined;
      await limitReview.review(webActor(request.session!.user), request.params.id, {
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
}
