/**
 * Rates: the rate in force for each pair, setting a new one, and a chart per pair of the last 24 hours —
 * the rates set, the quotes given and the market reference each quote was priced from. Where quotes are
 * priced from the market reference a rate set is an override of it: shown with its expiry, and whether it
 * was forced and why.
 */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { PAIRS } from '../../../core/currencies.ts';
import { formatDecimalTrimmed } from '../../../core/decimal.ts';
import { StringEnum } from '../../../http/schemas.ts';
import { type Html, html } from '../../../lib/html.ts';
import { RATE_SCALE } from '../../../modules/pricing/pricing.ts';
import {
  createRateService,
  type PairHistory,
  RATE_HISTORY_QUOTES,
  type RateHistory,
} from '../../../modules/pricing/service.ts';
import { webActor } from '../../../modules/web-users/service.ts';
import { legend, type Series, timeChart } from '../../kit/chart.ts';
import { CsrfField, csrfField } from '../../kit/csrf.ts';
import { dateTime, notice } from '../../kit/parts.ts';
import type { WebApp } from '../../kit/surface.ts';
import { table } from '../../kit/table.ts';
import { sendConsole } from './frame.ts';

export const schema = { querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) };

export const load = async (rates: ReturnType<typeof createRateService>) => ({
  current: await rates.list(),
  history: await rates.history(),
});

const rate = (units: bigint) => formatDecimalTrimmed(units, RATE_SCALE);

const REFERENCES = [
  { source: 'CHAINLINK', name: 'Chainlink reference', tone: 'chainlink' },
  { source: 'PTAX', name: 'PTAX reference', tone: 'ptax' },
] as const;

/**
 * A pair's series: the rates set (a step line), the quotes given, and the references they recorded; a
 * series with nothing to draw is left out of the chart and its legend.
 */
function seriesOf(pair: PairHistory): Series[] {
  const series: Series[] = [
    {
      kind: 'step',
      name: 'Rate set',
      tone: 'rate',
      points: pair.rates.map((r) => ({
        x: BigInt(r.at.getTime()),
        y: r.rate,
        label: `${rate(r.rate)} from ${r.at.toISOString()}`,
      })),
    },
    {
      kind: 'points',
      name: 'Quotes',
      tone: 'quote',
      points: pair.quotes.map((q) => ({
        x: BigInt(q.at.getTime()),
        y: q.rate,
        label: `Quote at ${q.at.toISOString()} (${q.environment}): ${rate(q.rate)}`,
      })),
    },
  ];
  for (const reference of REFERENCES) {
    const points = pair.quotes.flatMap((q) =>
      q.reference?.source === reference.source
        ? [
            {
              x: BigInt(q.at.getTime()),
              y: q.reference.rate,
              label: `${reference.name} at ${q.at.toISOString()}: ${rate(q.reference.rate)}`,
            },
          ]
        : [],
    );
    series.push({ kind: 'points', name: reference.name, tone: reference.tone, points });
  }
  return series.filter((s) => s.points.length > 0);
}

function describe(pair: PairHistory, history: RateHistory): string {
  const window = `the 24 hours to ${history.to.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
  const last = pair.rates.at(-1);
  const set = last
    ? `${pair.rates.length} rate${pair.rates.length === 1 ? '' : 's'} in force, the last ${rate(last.rate)}`
    : 'no rate set';
  const referenced = pair.quotes.filter((q) => q.reference && q.reference.source !== 'OPERATOR').length;
  return `${pair.pair} over ${window}: ${set}; ${pair.quotes.length} quote${pair.quotes.length === 1 ? '' : 's'} given, ${referenced} priced from a Chainlink or PTAX reference.`;
}

function pairChart(pair: PairHistory, history: RateHistory): Html {
  const id = `chart-${pair.pair.replace('/', '-').toLowerCase()}`;
  if (pair.rates.length === 0 && pair.quotes.length === 0) {
    return html`<section class="panel" aria-labelledby="${id}-h"><h2 id="${id}-h">${pair.pair}</h2><p class="empty">No rate in force and no quotes given in the last 24 hours.</p></section>`;
  }
  const series = seriesOf(pair);
  const rows = [
    ...pair.rates.map((r) => ({
      at: r.at,
      row: html`<tr><td>${dateTime(r.at.toISOString())}</td><td>Rate set by ${r.setBy}</td><td><code>${rate(r.rate)}</code></td><td>—</td></tr>`,
    })),
    ...pair.quotes.map((q) => ({
      at: q.at,
      row: html`<tr><td>${dateTime(q.at.toISOString())}</td><td>Quote (${q.environment})</td><td><code>${rate(q.rate)}</code></td><td>${
        q.reference
          ? html`${q.reference.source} <code>${rate(q.reference.rate)}</code> at ${dateTime(q.reference.at?.toISOString())}`
          : html`—`
      }</td></tr>`,
    })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  return html`<section class="panel" aria-labelledby="${id}-h"><h2 id="${id}-h">${pair.pair}</h2>
<figure class="chartfig"><figcaption>${pair.pair}: rates set and quotes given over the last 24 hours${
    history.truncated ? html` (the newest ${String(RATE_HISTORY_QUOTES)} quotes)` : html``
  }.</figcaption>
${timeChart({ id, title: `${pair.pair} over the last 24 hours`, description: describe(pair, history), from: history.from, to: history.to, series, format: rate })}
${legend(series)}</figure>
<details><summary>${pair.pair} data</summary>${table(
    ['Time', 'What', 'Rate', 'Market reference'],
    rows.map((r) => r.row),
    'Nothing in this window.',
  )}</details></section>`;
}

export function view(
  csrf: string,
  done: string | undefined,
  { current, history }: Awaited<ReturnType<typeof load>>,
): Html {
  return html`${notice(done ? 'Rate set.' : undefined)}
${table(
  ['Pair', 'Rate', 'Set by', 'Since', 'Override until', 'Reason'],
  current.data.map(
    (r) =>
      html`<tr><td>${r.pair}</td><td><code class="ident">${r.rate}</code></td><td>${r.setBy}</td><td>${dateTime(r.setAt)}</td><td>${r.expiresAt ? dateTime(r.expiresAt) : '—'}</td><td>${r.forced ? 'Forced: ' : ''}${r.reason ?? ''}</td></tr>`,
  ),
  'No rates set.',
)}
<section class="panel"><h2>Set a rate</h2><form method="post" action="/console/rates">${csrfField(csrf)}<div class="formrow">
<div class="field"><label for="pair">Pair</label><select id="pair" name="pair">${PAIRS.map((p) => html`<option value="${p}">${p}</option>`)}</select></div>
<div class="field"><label for="rate">Stablecoin per BRL</label><input id="rate" name="rate" required inputmode="decimal" placeholder="0.18"></div>
<div class="field"><label for="reason">Reason (required to force)</label><input id="reason" name="reason" maxlength="500"></div>
<div class="field"><label for="force"><input id="force" name="force" type="checkbox" value="on"> Force outside the band</label></div>
<div class="field"><button type="submit">Set rate</button></div></div></form></section>
${history.pairs.map((pair) => pairChart(pair, history))}`;
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
