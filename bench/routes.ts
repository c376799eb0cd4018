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

export function routeSpecs(
  samples: Samples,
  sizes: { smallRequests: number; largeRequests: number; customers: number },
) {
  const pageSize = 20;
  const specs: RouteSpec[] = [
    {
      name: 'GET /bank-accounts/{id}',
      openapiPath: '/bank-accounts/{id}',
      paths: samples.bankAccounts.map((id) => `/bank-accounts/${id}`),
      byId: true,
      check: sameId,
    },
    {
      name: 'GET /customers/{id}',
      openapiPath: '/customers/{id}',
      paths: samples.customers.map((id) => `/customers/${id}`),
      byId: true,
      check: sameId,
    },
    {
      name: 'GET /transactions/{id}',
      openapiPath: '/transactions/{id}',
      paths: samples.transactionIds.map((id) => `/transactions/${id}`),
      byId: true,
      check: sameId,
    },
    {
      name: 'GET /customers/{id}/limit-requests/{limitRequestId}',
      openapiPath: '/customers/{id}/limit-requests/{limitRequestId}',
      paths: samples.limitRequests.map((r) => `/customers/${r.customerId}/limit-requests/${r.id}`),
      byId: true,
      check: sameId,
    },
    {
      name: 'GET /customers/{id}/verifications/{verificationId}',
      openapiPath: '/customers/{id}/verifications/{verificationId}',
      paths: samples.verifications.map((v) => `/customers/${v.customerId}/verifications/${v.id}`),
      byId: true,
      check: sameId,
    },
    {
      name: `GET /customers/{id}/limit-requests?limit=${pageSize} (${sizes.smallRequests} requests)`,
      openapiPath: '/customers/{id}/limit-requests',
      paths: samples.smallListCustomers.map((id) => `/customers/${id}/limit-requests?limit=${pageSize}`),
      byId: false,
      baseline: {
        name: `baseline (c) Fastify + pg page of ${sizes.smallRequests} limit requests`,
        paths: samples.smallListCustomers.map((id) => `/customers/${id}/limit-requests?limit=${pageSize}`),
      },
      check: pageOf(sizes.smallRequests, pageSize),
    },
    {
      name: `GET /customers/{id}/limit-requests?limit=${pageSize} (${sizes.largeRequests} requests)`,
      openapiPath: '/customers/{id}/limit-requests',
      paths: [`/customers/${samples.largeListCustomer}/limit-requests?limit=${pageSize}`],
      byId: false,
      baseline: {
        name: `baseline (d) Fastify + pg page of ${sizes.largeRequests} limit requests`,
        paths: [`/customers/${samples.largeListCustomer}/limit-requests?limit=${pageSize}`],
      },
      check: pageOf(sizes.largeRequests, pageSize),
    },
    {
      name: `GET /customers?limit=${pageSize} (${sizes.customers} customers)`,
      openapiPath: '/customers',
      paths: [`/customers?limit=${pageSize}`],
      byId: false,
      baseline: {
        name: `baseline (e) Fastify + pg page of ${sizes.customers} customers`,
        paths: [`/customers?limit=${pageSize}`],
      },
      check: pageOf(sizes.customers, pageSize),
    },
    {
      name: `GET /transactions?limit=${pageSize} (${samples.transactions} transactions)`,
      openapiPath: '/transactions',
      paths: [`/transactions?limit=${pageSize}`],
      byId: false,
      baseline: {
        name: `baseline (f) Fastify + pg pages of ${samples.transactions} transactions`,
        paths: [`/transactions?limit=${pageSize}`],
      },
      check: pageOf(samples.transactions, pageSize),
    },
    {
      name: `GET /transactions?customerId={id}&limit=${pageSize} (${sizes.smallRequests} transactions)`,
      openapiPath: '/transactions',
      paths: samples.smallListCustomers.map((id) => `/transactions?customerId=${id}&limit=${pageSize}`),
      byId: false,
      baseline: {
        name: `baseline (g) Fastify + pg pages of ${sizes.smallRequests} transactions`,
        paths: samples.smallListCustomers.map((id) => `/transactions?customerId=${id}&limit=${pageSize}`),
      },
      check: pageOf(sizes.smallRequests, pageSize),
    },
    {
      name: `GET /transactions?customerId={id}&limit=${pageSize} (${sizes.largeRequests} transactions)`,
      openapiPath: '/transactions',
      paths: [`/transactions?customerId=${samples.largeListCustomer}&limit=${pageSize}`],
      byId: false,
      baseline: {
        name: `baseline (h) Fastify + pg pages of ${sizes.largeRequests} transactions`,
        paths: [`/transactions?customerId=${samples.largeListCustomer}&limit=${pageSize}`],
      },
      check: pageOf(sizes.largeRequests, pageSize),
    },
  ];
  return specs;
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
