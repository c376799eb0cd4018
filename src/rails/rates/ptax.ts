/**
 * The Banco Central do Brasil's PTAX (OData service `CotacaoDolarDia` at olinda.bcb.gov.br): the day's
 * closing USD/BRL bulletin, buying and selling. A weekend or holiday answers an empty `value`, so the
 * client walks back day by day to the last business day. The figures are read from the answer's text as
 * decimals, never through floating point.
 */
import { parseDecimal } from '../../core/decimal.ts';

export const DEFAULT_PTAX_URL = 'https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata';

export type PtaxBulletin = {
  /** The bulletin's business day, `YYYY-MM-DD`. */
  date: string;
  /** BRL per USD, at `scale` digits. */
  buy: bigint;
  sell: bigint;
  /** When the BCB published it (Brasília time as given, kept as text). */
  publishedAt: string;
};

/** Brasília is three hours behind UTC (no daylight saving since 2019): the bulletins' calendar. */
const BRASILIA_OFFSET_MS = 3 * 3600_000;

export class PtaxUnavailable extends Error {}

const mmddyyyy = (day: Date) =>
  `${String(day.getUTCMonth() + 1).padStart(2, '0')}-${String(day.getUTCDate()).padStart(2, '0')}-${day.getUTCFullYear()}`;

/** The figure named `field` of the last bulletin in an OData answer's text, as written (no float). */
function figure(text: string, field: string): string | undefined {
  const matches = [...text.matchAll(new RegExp(`"${field}"\\s*:\\s*"?(\\d+(?:\\.\\d+)?)"?`, 'g'))];
  return matches.at(-1)?.[1];
}

/** A bulletin from the service's answer for `date`, or null when that day has none. */
export function parsePtaxAnswer(text: string, date: string, scale: number): PtaxBulletin | null {
  let body: { value?: { dataHoraCotacao?: string }[] };
  try {
    body = JSON.parse(text);
  } catch {
    throw new PtaxUnavailable('the PTAX service answered something that is not JSON');
  }
  if (!Array.isArray(body.value)) throw new PtaxUnavailable('the PTAX answer has no value list');
  if (body.value.length === 0) return null;
  const buy = figure(text, 'cotacaoCompra');
  const sell = figure(text, 'cotacaoVenda');
  if (!buy || !sell) throw new PtaxUnavailable('the PTAX answer lacks cotacaoCompra or cotacaoVenda');
  const digits = (value: string) => {
    const [whole, fraction = ''] = value.split('.');
    return parseDecimal(fraction ? `${whole}.${fraction.slice(0, scale)}` : whole!, scale, 8);
  };
  return {
    date,
    buy: digits(buy),
    sell: digits(sell),
    publishedAt: String(body.value.at(-1)?.dataHoraCotacao ?? ''),
  };
}

export type PtaxClient = { latest(now: Date, scale: number): Promise<PtaxBulletin> };

export function ptaxClient(
  baseUrl: string = DEFAULT_PTAX_URL,
  options: { timeoutMs?: number } = {},
): PtaxClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const base = baseUrl.replace(/\/+$/, '');
  async function bulletinOn(day: Date, scale: number): Promise<PtaxBulletin | null> {
    const url = `${base}/CotacaoDolarDia(dataCotacao=@dataCotacao)?@dataCotacao='${mmddyyyy(day)}'&$format=json`;
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new PtaxUnavailable(`the PTAX service could not be reached: ${(error as Error).message}`);
    }
    if (!response.ok) throw new PtaxUnavailable(`the PTAX service answered ${response.status}`);
    return parsePtaxAnswer(await response.text(), day.toISOString().slice(0, 10), scale);
  }
  return {
    /** The last business day's bulletin on or before `now`'s day in Brasília (looking back up to ten days). */
    async latest(now, scale) {
      const brasilia = new Date(now.getTime() - BRASILIA_OFFSET_MS);
      for (let back = 0; back < 10; back++) {
        const day = new Date(
          Date.UTC(brasilia.getUTCFullYear(), brasilia.getUTCMonth(), brasilia.getUTCDate() - back),
        );
        const bulletin = await bulletinOn(day, scale);
        if (bulletin) return bulletin;
      }
      throw new PtaxUnavailable('the PTAX service has no bulletin for the last ten days');
    },
  };
}
