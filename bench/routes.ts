/**
 * The service's routes under test, built from the sampled ids. A route is measured once the service
 * publishes it in its OpenAPI document; before the load, every sampled path is read once and must answer
 * 200 with the expected body, so the data set is known to be one the service can serve.
 */
import type { Samples } from './samples.ts';

export type RouteSpec = {
  name: string;
  /** The path as the OpenAPI document names it. */
  openapiPath: string;
  paths: string[];
  /** Reads by id are held to the throughput target against baseline (b). */
  byId: boolean;
  /**
   * Lists are held to the list target against a baseline of their own on the minimal server: the same
   * page SELECT alone, on these paths.
   */
  baseline?: { name: string; paths: string[] };
  /** Why this answer is not the expected one, or null when it is. */
  check(path: string, body: unknown): string | null;
};

type Json = Record<string, unknown>;

const lastSegment = (path: string) => path.split('?')[0]!.split('/').pop();

const sameId = (path: string, body: unknown) =>
  (body as Json)?.id === lastSegment(path) ? null : 'the answer is not the resource asked for';

function pageOf(expectedTotal: number, size: number) {
  return (_path: string, body: unknown) => {
    const page = body as { data?: unknown[]; pagination?: { total?: number; size?: number } };
    if (!Array.isArray(page?.data) || page.data.length !== Math.min(size, expectedTotal)) {
      return `expected ${Math.min(size, expectedTotal)} items, got ${page?.data?.length}`;
    }
    if (page.pagination?.total !== expectedTotal) {
      return `expected pagination.total ${expectedTotal}, got ${page.pagination?.total}`;
    }
    return null;
  };
}

const PAGE_SIZE = 20;

/** A read by id over sampled paths, held to the target against baseline (b). */
const byId = (openapiPath: string, paths: string[]): RouteSpec => ({
  name: `GET ${openapiPath}`,
  openapiPath,
  paths,
  byId: true,
  check: sameId,
});

/**
 * A list page over sampled paths, held to the list target against baseline `letter` on the minimal
 * server (the same page SELECT alone, on the same paths), its answer checked against `total`.
 */
const page = (
  name: string,
  openapiPath: string,
  paths: string[],
  letter: string,
  what: string,
  total: number,
) => ({
  name: `${name} (${total} ${what})`,
  openapiPath,
  paths,
  byId: false,
  baseline: { name: `baseline (${letter}) Fastify + pg page of ${total} ${what}`, paths },
  check: pageOf(total, PAGE_SIZE),
});

export function routeSpecs(
  samples: Samples,
  sizes: { smallRequests: number; largeRequests: number; customers: number },
): RouteSpec[] {
  const limit = `limit=${PAGE_SIZE}`;
  const requests = (id: string) => `/customers/${id}/limit-requests?${limit}`;
  const transactions = (id: string) => `/transactions?customerId=${id}&${limit}`;
  return [
    byId(
      '/bank-accounts/{id}',
      samples.bankAccounts.map((id) => `/bank-accounts/${id}`),
    ),
    byId(
      '/customers/{id}',
      samples.customers.map((id) => `/customers/${id}`),
    ),
    byId(
      '/transactions/{id}',
      samples.transactionIds.map((id) => `/transactions/${id}`),
    ),
    byId(
      '/customers/{id}/limit-requests/{limitRequestId}',
      samples.limitRequests.map((r) => `/customers/${r.customerId}/limit-requests/${r.id}`),
    ),
    byId(
      '/customers/{id}/verifications/{verificationId}',
      samples.verifications.map((v) => `/customers/${v.customerId}/verifications/${v.id}`),
    ),
    page(
      `GET /customers/{id}/limit-requests?${limit}`,
      '/customers/{id}/limit-requests',
      samples.smallListCustomers.map(requests),
      'c',
      'limit requests',
      sizes.smallRequests,
    ),
    page(
      `GET /customers/{id}/limit-requests?${limit}`,
      '/customers/{id}/limit-requests',
      [requests(samples.largeListCustomer)],
      'd',
      'limit requests',
      sizes.largeRequests,
    ),
    page(`GET /customers?${limit}`, '/customers', [`/customers?${limit}`], 'e', 'customers', sizes.customers),
    // the list reads two tables: its baselines run both page SELECTs at once
    page(
      `GET /transactions?${limit}`,
      '/transactions',
      [`/transactions?${limit}`],
      'f',
      'transactions',
      samples.transactionTotal,
    ),
    page(
      `GET /transactions?customerId={id}&${limit}`,
      '/transactions',
      samples.smallListCustomers.map(transactions),
      'g',
      'transactions',
      sizes.smallRequests,
    ),
    page(
      `GET /transactions?customerId={id}&${limit}`,
      '/transactions',
      [transactions(samples.largeListCustomer)],
      'h',
      'transactions',
      sizes.largeRequests,
    ),
  ];
}

/** The paths the service publishes (its OpenAPI document is generated from the registered routes). */
export async function publishedPaths(origin: string): Promise<Set<string>> {
  const response = await fetch(`${origin}/openapi.json`);
  if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
  const document = (await response.json()) as { paths?: Record<string, Record<string, unknown>> };
  return new Set(
    Object.entries(document.paths ?? {})
      .filter(([, operations]) => 'get' in operations)
      .map(([path]) => path),
  );
}

/** Reads every path once (a few at a time); returns the problems found, at most a few per route. */
export async function probe(origin: string, headers: Record<string, string>, spec: RouteSpec) {
  const problems: string[] = [];
  const queue = [...spec.paths];
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined && problems.length < 5; path = queue.shift()) {
      const response = await fetch(origin + path, { headers });
      const text = await response.text();
      if (response.status !== 200) {
        problems.push(`${path}: ${response.status} ${text.slice(0, 300)}`);
        continue;
      }
      const problem = spec.check(path, JSON.parse(text));
      if (problem) problems.push(`${path}: ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return problems;
}
