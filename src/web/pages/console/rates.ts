/**
 * Rates: the rate in force for each pair, and setting a new one. Where quotes are priced from the market
 * reference a rate set is an override of it: shown with its expiry, and whether it was forced and why.
 */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { PAIRS } from '../../../core/currencies.ts';
import { StringEnum } from '../../../http/schemas.ts';
import { type Html, html } from '../../../lib/html.ts';
import { createRateService } from '../../../modules/pricing/service.ts';
import { webActor } from '../../../modules/web-users/service.ts';
import { CsrfField, csrfField } from '../../kit/csrf.ts';
import { dateTime, notice } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { table } from '../../kit/table.ts';
import { sendConsole } from './frame.ts';

export const schema = { querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) };

export const load = (rates: ReturnType<typeof createRateService>) => rates.list();

export function view(
  csrf: string,
  done: string | undefined,
  current: Awaited<ReturnType<typeof load>>,
): Html {
  return html`${notice(done ? 'Rate set.' : undefined)}
${table(
  ['Pair', 'Rate', 'Set by', 'Since', 'Override until', 'Reason'],
  current.data.map(
    (r) =>
      html`<tr><td>${r.pair}</td><td><code>${r.rate}</code></td><td>${r.setBy}</td><td>${dateTime(r.setAt)}</td><td>${r.expiresAt ? dateTime(r.expiresAt) : '—'}</td><td>${r.forced ? 'Forced: ' : ''}${r.reason ?? ''}</td></tr>`,
  ),
  'No rates set.',
)}
<section class="panel"><h2>Set a rate</h2><form method="post" action="/console/rates">${csrfField(csrf)}<div class="formrow">
<div class="field"><label for="pair">Pair</label><select id="pair" name="pair">${PAIRS.map((p) => html`<option value="${p}">${p}</option>`)}</select></div>
<div class="field"><label for="rate">Stablecoin per BRL</label><input id="rate" name="rate" required inputmode="decimal" placeholder="0.18"></div>
<div class="field"><label for="reason">Reason (required to force)</label><input id="reason" name="reason" maxlength="500"></div>
<div class="field"><label for="force"><input id="force" name="force" type="checkbox" value="on"> Force outside the band</label></div>
<div class="field"><button type="submit">Set rate</button></div></div></form></section>`;
}

export function register(app: WebApp, ctx: AppContext) {
  const rates = createRateService(ctx);

  app.get('/console/rates', { schema }, async (request, reply) => {
    const current = await load(rates);
    return sendConsole(
      request,
      reply,
      'Rates',
      view(request.session!.csrfToken, request.query.done, current),
    );
  });

  app.post(
    '/console/rates',
    {
      schema: {
        body: Type.Object({
          ...CsrfField,
          pair: StringEnum(PAIRS),
          rate: Type.String({ maxLength: 40 }),
          reason: Type.Optional(Type.String({ maxLength: 500 })),
          force: Type.Optional(Type.Literal('on')),
        }),
      },
    },
    async (request, reply) => {
      const { body } = request;
      await rates.set(webActor(request.session!.user), body.pair, body.rate.trim(), {
        force: body.force === 'on',
        reason: body.reason?.trim() || undefined,
      });
      return reply.redirect('/console/rates?done=1', 303);
    },
  );
}
