/** A verification under review: the customer, its KYB, the submitted documents, and the decision. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { StringEnum } from '../../../http/schemas.ts';
import { type Html, html } from '../../../lib/html.ts';
import {
  createVerificationReviewService,
  REVIEW_OUTCOMES,
} from '../../../modules/verification-review/review.ts';
import { webActor } from '../../../modules/web-users/service.ts';
import { CsrfField, csrfField } from '../../kit/csrf.ts';
import { badge } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { sendConsole } from './frame.ts';
import { kybSections } from './ownership.ts';
import { IdParams, inlineDocument } from './reviews.ts';

export const schema = { params: IdParams };

export const load = (review: ReturnType<typeof createVerificationReviewService>, id: string) =>
  review.get(id);

export function view(csrf: string, v: Awaited<ReturnType<typeof load>>): Html {
  return html`<div class="grid"><section class="panel"><h2>Customer</h2><dl>
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
}

export function register(app: WebApp, ctx: AppContext) {
  const review = createVerificationReviewService(ctx);

  app.get('/console/reviews/verifications/:id', { schema }, async (request, reply) => {
    const v = await load(review, request.params.id);
    return sendConsole(
      request,
      reply,
      `Verification of ${v.customer.name}`,
      view(request.session!.csrfToken, v),
    );
  });

  app.post(
    '/console/reviews/verifications/:id',
    {
      schema: {
        ...schema,
        body: Type.Object({
          ...CsrfField,
          status: StringEnum(REVIEW_OUTCOMES),
          rejectLabels: Type.Optional(Type.String({ maxLength: 500 })),
        }),
      },
    },
    async (request, reply) => {
      const { body } = request;
      const labels = (body.rejectLabels ?? '')
        .split(',')
        .map((label) => label.trim())
        .filter(Boolean);
      await review.review(webActor(request.session!.user), request.params.id, {
        status: body.status,
        statusReason: labels.length > 0 ? { rejectLabels: labels } : undefined,
      });
      return reply.redirect('/console/reviews/verifications?done=1', 303);
    },
  );
}
