/**
 * Every page of a PSP listing over a time window (`inicio`, `fim`, `paginacao.*`, as the API Pix's
 * `GET /pix` and Efí's `GET /v2/gn/pix/enviados` both take them). A page that fails or answers
 * something else than a page leaves the listing incomplete: the sweep then keeps its window for the next
 * pass rather than taking a partial list for the whole. An item that cannot be read is reported, with
 * why, and never stops the items after it.
 */
import type { Listing } from '../rail.ts';
import type { PspHttpClient } from './http-client.ts';

const PAGE_SIZE = 1000;

/** Hands over something the PSP answered that could not be read, and why (for operations). */
export type ReportUnreadable = (item: unknown, reason: string) => void;

export async function listEveryPage<T>(
  http: PspHttpClient,
  request: { path: string; route: string; from: Date; to: Date },
  read: (item: unknown) => T | string,
  report: ReportUnreadable,
): Promise<Listing<T>> {
  const items: T[] = [];
  let calls = 0;
  for (let page = 0; ; page++) {
    const query = new URLSearchParams({
      inicio: request.from.toISOString(),
      fim: request.to.toISOString(),
      'paginacao.paginaAtual': String(page),
      'paginacao.itensPorPagina': String(PAGE_SIZE),
    });
    calls++;
    let answer: Awaited<ReturnType<typeof http.call>>;
    try {
      answer = await http.call({ method: 'GET', path: `${request.path}?${query}`, route: request.route });
    } catch {
      return { items, complete: false, calls };
    }
    const body = answer.body as {
      pix?: unknown;
      parametros?: { paginacao?: { quantidadeDePaginas?: unknown } };
    } | null;
    if (answer.status !== 200 || !Array.isArray(body?.pix)) return { items, complete: false, calls };
    for (const item of body.pix) {
      const value = read(item);
      if (typeof value === 'string') report(item, value);
      else items.push(value);
    }
    const pages = body.parametros?.paginacao?.quantidadeDePaginas;
    if (typeof pages !== 'number' || page + 1 >= pages || body.pix.length === 0) {
      return { items, complete: true, calls };
    }
  }
}
