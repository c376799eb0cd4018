/**
 * Charts drawn on the server as SVG: no script, no library. Values stay exact (bigint units, times in
 * milliseconds) until they become a coordinate, which `scale` computes in hundredths of a pixel with one
 * rounding, halves away from zero.
 */
import { type Html, html } from '../../lib/html.ts';

/** The values an axis spans, both ends included. */
export type Domain = { lo: bigint; hi: bigint };

/** The smallest domain holding every value (null: no values). */
export function domainOf(values: readonly bigint[]): Domain | null {
  if (values.length === 0) return null;
  let lo = values[0]!;
  let hi = lo;
  for (const value of values) {
    if (value < lo) lo = value;
    if (value > hi) hi = value;
  }
  return { lo, hi };
}

/**
 * The domain widened by `parts` per thousand of its span on each side; one with no span, by `parts` per
 * thousand of its value (at least one unit).
 */
export function padded(domain: Domain, parts: bigint): Domain {
  const base = domain.hi === domain.lo ? (domain.lo < 0n ? -domain.lo : domain.lo) : domain.hi - domain.lo;
  const pad = (base * parts) / 1000n || 1n;
  return { lo: domain.lo - pad, hi: domain.hi + pad };
}

/**
 * The domain with its ends moved outward to round values: multiples of the power of ten that is at most a
 * tenth of its span and more than a hundredth, so that an axis labels them with few digits.
 */
export function rounded(domain: Domain): Domain {
  const span = domain.hi - domain.lo;
  if (span <= 0n) return domain;
  const step = 10n ** BigInt(Math.max(span.toString().length - 2, 0));
  const down = (v: bigint) => (v >= 0n ? v - (v % step) : v - (((v % step) + step) % step));
  const lo = down(domain.lo);
  const hi = down(domain.hi) === domain.hi ? domain.hi : down(domain.hi) + step;
  return { lo, hi };
}

/**
 * The coordinate of `value` on an axis drawn from pixel `start` (the domain's low end) to pixel `end`
 * (its high end; smaller than `start` for a vertical axis, whose origin is at the top), as SVG text with
 * at most two decimals. Values outside the domain are held at its ends; a domain of one value puts
 * every value midway.
 */
export function scale(value: bigint, domain: Domain, start: number, end: number): string {
  const from = BigInt(start) * 100n;
  const length = BigInt(end - start) * 100n;
  const span = domain.hi - domain.lo;
  if (span <= 0n) return hundredths(from + halfAwayFromZero(length, 2n));
  const held = value < domain.lo ? domain.lo : value > domain.hi ? domain.hi : value;
  return hundredths(from + halfAwayFromZero((held - domain.lo) * length, span));
}

function halfAwayFromZero(n: bigint, d: bigint): bigint {
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const rounded = (2n * abs + d) / (2n * d);
  return negative ? -rounded : rounded;
}

function hundredths(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const fraction = (abs % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs / 100n}${fraction ? `.${fraction}` : ''}`;
}

/** A point of a series: `x` a time in milliseconds, `y` a value in units. */
export type ChartPoint = { x: bigint; y: bigint; label: string };

/**
 * A series: a step line (each value holds until the next; the last until the window's end) or points.
 * `tone` names its colour and shape, shown the same in the legend.
 */
export type Series = { kind: 'step' | 'points'; name: string; tone: Tone; points: ChartPoint[] };

export type Tone = 'rate' | 'quote' | 'chainlink' | 'ptax' | 'operator';

const TONES: Record<Tone, string> = {
  rate: '#0a6b4d',
  quote: '#1d4ed8',
  chainlink: '#a01d1d',
  ptax: '#8a5200',
  operator: '#566074',
};

const WIDTH = 720;
const HEIGHT = 260;
const LEFT = 96;
const RIGHT = 704;
const TOP = 16;
const BOTTOM = 224;

export type ChartInput = {
  id: string;
  title: string;
  description: string;
  from: Date;
  to: Date;
  series: Series[];
  /** A value in units as the axis shows it. */
  format: (units: bigint) => string;
};

/** An SVG chart of series over a time window, with its title and description for assistive technology. */
export function timeChart(input: ChartInput): Html {
  const xs: Domain = { lo: BigInt(input.from.getTime()), hi: BigInt(input.to.getTime()) };
  const found = domainOf(input.series.flatMap((s) => s.points.map((p) => p.y)));
  const ys = found ? rounded(padded(found, 50n)) : null;
  const x = (value: bigint) => scale(value, xs, LEFT, RIGHT);
  const y = (value: bigint) => scale(value, ys!, BOTTOM, TOP);
  const ticks = [0n, 1n, 2n, 3n, 4n].map((i) => xs.lo + ((xs.hi - xs.lo) * i) / 4n);
  const drawn = ys
    ? input.series.map((series) =>
        series.kind === 'step' ? stepLine(series, x, y, xs.hi) : dots(series, x, y),
      )
    : [];
  return html`<div class="chartwrap" tabindex="0" role="group" aria-label="${input.title}"><svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${input.id}-title ${input.id}-desc" id="${input.id}">
<title id="${input.id}-title">${input.title}</title><desc id="${input.id}-desc">${input.description}</desc>
<g aria-hidden="true" font-size="12" fill="#1a2233">
<line x1="${LEFT}" y1="${BOTTOM}" x2="${RIGHT}" y2="${BOTTOM}" stroke="#566074"/>
<line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${BOTTOM}" stroke="#566074"/>
${ticks.map(
  (t, i) =>
    html`<text x="${x(t)}" y="${BOTTOM + 18}" text-anchor="${i === 0 ? 'start' : i === 4 ? 'end' : 'middle'}">${hourMinute(t)}</text>`,
)}
${
  ys
    ? [ys.lo, (ys.lo + ys.hi) / 2n, ys.hi].map(
        (v) =>
          html`<text x="${LEFT - 6}" y="${y(v)}" text-anchor="end" dominant-baseline="middle">${input.format(v)}</text>`,
      )
    : html`<text x="${(LEFT + RIGHT) / 2}" y="${(TOP + BOTTOM) / 2}" text-anchor="middle">Nothing in this window</text>`
}
</g>
${drawn}
</svg></div>`;
}

function stepLine(series: Series, x: (v: bigint) => string, y: (v: bigint) => string, end: bigint): Html {
  if (series.points.length === 0) return html``;
  const [first, ...rest] = series.points;
  let d = `M${x(first!.x)} ${y(first!.y)}`;
  for (const point of rest) d += ` H${x(point.x)} V${y(point.y)}`;
  d += ` H${x(end)}`;
  return html`<path class="series-${series.tone}" data-series="${series.name}" d="${d}" fill="none" stroke="${TONES[series.tone]}" stroke-width="2"><title>${series.points.map((p) => p.label).join('; ')}</title></path>`;
}

function dots(series: Series, x: (v: bigint) => string, y: (v: bigint) => string): Html {
  const colour = TONES[series.tone];
  return html`<g class="series-${series.tone}" data-series="${series.name}">${series.points.map((p) =>
    series.tone === 'quote'
      ? html`<circle cx="${x(p.x)}" cy="${y(p.y)}" r="3.5" fill="${colour}"><title>${p.label}</title></circle>`
      : html`<rect x="${x(p.x)}" y="${y(p.y)}" width="6" height="6" transform="translate(-3 -3)" fill="none" stroke="${colour}" stroke-width="1.5"><title>${p.label}</title></rect>`,
  )}</g>`;
}

/** The legend beside a chart: each series' name in its colour and shape. */
export function legend(series: Series[]): Html {
  return html`<ul class="legend">${series.map(
    (s) =>
      html`<li><svg width="18" height="12" aria-hidden="true">${
        s.kind === 'step'
          ? html`<line x1="0" y1="6" x2="18" y2="6" stroke="${TONES[s.tone]}" stroke-width="2"/>`
          : s.tone === 'quote'
            ? html`<circle cx="9" cy="6" r="3.5" fill="${TONES[s.tone]}"/>`
            : html`<rect x="6" y="3" width="6" height="6" fill="none" stroke="${TONES[s.tone]}" stroke-width="1.5"/>`
      }</svg>${s.name}</li>`,
  )}</ul>`;
}

const hourMinute = (ms: bigint): string => `${new Date(Number(ms)).toISOString().slice(11, 16)} UTC`;
