/** A third-party holder under review: who holds the account, where it pays (PIX key or US account), and the decision. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { StringEnum } from '../../../http/schemas.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createHolderReviewService } from '../../../modules/bank-accounts/holder-review.ts';
import { HOLDER_REVIEW_OUTCOMES } from '../../../modules/bank-accounts/holder-state.ts';
import { webActor } from '../../../modules/web-users/service.ts';
import { CsrfField, csrfField } from '../../kit/csrf.ts';
import { badge } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { accountIdentifier, holderTaxId, IDENTIFIER_LABEL } from '../shared/bank-account.ts';
import { sendConsole } from './frame.ts';
import { IdParams } from './reviews.ts';

export const schema = { params: IdParams };

export const load = (review: ReturnType<typeof createHolderReviewService>, id: string) => review.get(id);

export function view(csrf: string, a: Awaited<ReturnType<typeof load>>): Html {
  return html`<div class="grid"><section class="panel"><h2>Holder</h2><dl>
<dt>Legal name</dt><dd>${a.holder.legalName}</dd><dt>Type</dt><dd>${a.holder.type}</dd><dt>Tax id</dt><dd>${holderTaxId(a.holder.taxId)}</dd>
<dt>E-mail</dt><dd>${a.holder.email}</dd><dt>Address</dt><dd>${a.holder.address.line1}, ${a.holder.address.city} ${a.holder.address.state} ${a.holder.address.postalCode} ${a.holder.address.country}</dd>
<dt>${IDENTIFIER_LABEL}</dt><dd>${accountIdentifier(a)}</dd><dt>Status</dt><dd>${badge(a.holder.verification.status)}</dd></dl></section>
${
  a.holder.verification.status === 'UNDER_VERIFICATION'
    ? html`<section class="panel"><h2>Decision</h2><form method="post" action="/console/reviews/holders/${a.id}">${csrfField(csrf)}
<div class="field"><label for="status">Outcome</label><select id="status" name="status">${HOLDER_REVIEW_OUTCOMES.map((o) => html`<option value="${o}">${o.replaceAll('_', ' ')}</option>`)}</select></div>
<div class="field"><label for="reviewComment">Comment <span class="hint">(required to reject)</span></label><textarea id="reviewComment" name="reviewComment" maxlength="2000" rows="3"></textarea></div>
<button type="submit">Record decision</button></form></section>`
    : html``
}</div>`;
}

export function register(app: WebApp, ctx: AppContext) {
  const review = createHolderReviewService(ctx);

  app.get('/console/reviews/holders/:id', { schema }, async (request, reply) => {
    const a = await load(review, request.params.id);
    return sendConsole(request, reply, `Holder ${a.holder.legalName}`, view(request.session!.csrfToken, a));
  });

  app.post(
    '/console/reviews/holders/:id',
    {
      schema: {
        ...schema,
        body: Type.Object({
          ...CsrfField,
          status: StringEnum(HOLDER_REVIEW_OUTCOMES),
          reviewComment: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
      },
    },
    async (request, reply) => {
      await review.review(webActor(request.session!.user), request.params.id, request.body);
      return reply.redirect('/console/reviews/holders?done=1', 303);
    },
  );
}
