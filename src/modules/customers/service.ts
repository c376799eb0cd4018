import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { formatAmount } from '../../core/money.ts';
import { listWindow, type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import { combinedFacts } from '../../db/one-statement.ts';
import { batchedFacts } from '../../db/read-batches.ts';
import type { Database, Executor } from '../../db/types.ts';
import { isCountryCode } from '../../lib/countries.ts';
import type { Tenant } from '../../lib/environment.ts';
import { normalizeCnpj, normalizeCpf } from '../../lib/tax-id.ts';
import { recordEvent } from '../events/outbox.ts';
import { limitsInForce } from '../limits/in-force.ts';
import { readLimitUsage } from '../limits/usage.ts';
import { screenSubject } from '../screening/service.ts';
import { attachmentFacts, requirementsFrom, requirementsOf } from '../verifications/kyb.ts';
import { openVerification } from '../verifications/service.ts';
import { emptyStatusReason } from '../verifications/state.ts';
import { type CustomerAnswer, type LinkMinter, presentCustomerWithRequirements } from './presenter.ts';
import type { CustomerWithVerification } from './repo.ts';
import * as repo from './repo.ts';

export type CreateCustomerInput = {
  type: repo.CustomerType;
  name: string;
  taxId: string;
  country: string;
  email: string;
  birthDate?: string | undefined;
  incorporationDate?: string | undefined;
  metadata?: Record<string, string> | undefined;
};

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

function validate(input: CreateCustomerInput, today: string): { taxId: string } {
  const errors: { pointer: string; message: string }[] = [];
  if (!isCountryCode(input.country))
    errors.push({ pointer: '/body/country', message: 'is not an ISO 3166-1 alpha-3 code' });
  if (input.type === 'INDIVIDUAL' && input.incorporationDate !== undefined)
    errors.push({ pointer: '/body/incorporationDate', message: 'is only for BUSINESS customers' });
  if (input.type === 'BUSINESS' && input.birthDate !== undefined)
    errors.push({ pointer: '/body/birthDate', message: 'is only for INDIVIDUAL customers' });
  for (const [field, value] of [
    ['birthDate', input.birthDate],
    ['incorporationDate', input.incorporationDate],
  ] as const) {
    if (value !== undefined && value > today)
      errors.push({ pointer: `/body/${field}`, message: 'must not be in the future' });
  }
  let taxId = input.taxId.trim();
  if (input.country === 'BRA') {
    const normalized = input.type === 'INDIVIDUAL' ? normalizeCpf(taxId) : normalizeCnpj(taxId);
    if (!normalized) {
      errors.push({
        pointer: '/body/taxId',
        message: input.type === 'INDIVIDUAL' ? 'is not a valid CPF' : 'is not a valid CNPJ',
      });
    } else taxId = normalized;
  } else if (taxId.length === 0) errors.push({ pointer: '/body/taxId', message: 'must not be blank' });
  if (input.name.trim().length === 0) errors.push({ pointer: '/body/name', message: 'must not be blank' });
  if (errors.length > 0) throw new AppError('invalid_request', 'The request body is invalid', { errors });
  return { taxId };
}

export function createCustomerService(deps: {
  db: Database;
  clock: Clock;
  link: LinkMinter;
  config: Pick<Config, 'defaultLimits' | 'screening'>;
}) {
  const { db, clock, link, config } = deps;
  /** A page of customers, each row with its requirements' facts, in one statement. */
  const readPage = repo.customerPageReader(db, attachmentFacts);
  /** A customer and what its requirements need beside its rows, in one statement, coalesced. */
  const readCustomer = batchedFacts(
    db,
    combinedFacts({ customer: repo.customerFact, attachments: attachmentFacts }),
  );

  /** The answers for rows, each with its requirements (their attachments read in one go). */
  async function answers(rows: repo.CustomerWithVerification[]): Promise<CustomerAnswer[]> {
    const requirements = await requirementsOf(db, rows);
    return rows.map((row, index) => presentCustomerWithRequirements(row, link, requirements[index]!));
  }

  async function create(tenant: Tenant, input: CreateCustomerInput): Promise<CustomerAnswer> {
    const now = clock();
    const { taxId } = validate(input, now.toISOString().slice(0, 10));
    const customer: repo.CustomerRow = {
      id: newId(),
      project_id: tenant.projectId,
      environment: tenant.environment,
      type: input.type,
      name: input.name.trim(),
      tax_id: taxId,
      country: input.country,
      email: input.email.trim(),
      birth_date: input.birthDate ?? null,
      incorporation_date: input.incorporationDate ?? null,
      metadata: input.metadata && Object.keys(input.metadata).length > 0 ? input.metadata : null,
      created_at: now,
      updated_at: now,
    };
    const verification = {
      id: newId(),
      customer_id: customer.id,
      project_id: tenant.projectId,
      environment: tenant.environment,
      status: 'NOT_STARTED' as const,
      level: 'STANDARD' as const,
      status_reason: emptyStatusReason(),
      created_at: now,
      updated_at: now,
      // Sandbox outcomes are simulated by the sandbox worker as soon as they are due.
      sandbox_due_at: tenant.environment === 'sandbox' ? now : null,
    };
    const row: repo.CustomerWithVerification = {
      ...customer,
      tos_required: true,
      verification_id: verification.id,
      verification_status: 'NOT_STARTED',
      verification_level: 'STANDARD',
      verification_review_approved: false,
      verification_reject_labels: null,
    };
    // a new customer has no documents and no parties yet
    const requirements = requirementsFrom(row, { pendingDocumentTypes: [], parties: [] });
    const view = presentCustomerWithRequirements(row, link, requirements);
    try {
      // the transaction's value is the answer: it commits with the change (src/http/idempotency.ts)
      return await db.transaction(async (tx) => {
        await repo.insertCustomer(tx, customer);
        await openVerification(tx, verification);
        await screenSubject(
          tx,
          {
            type: 'CUSTOMER',
            id: customer.id,
            customerId: customer.id,
            tenant,
            party: {
              name: customer.name,
              kind: customer.type,
              birthDate: customer.birth_date,
              country: customer.country,
            },
          },
          config.screening.threshold,
          now,
        );
        await recordEvent(tx, {
          tenant,
          type: 'customer.created',
          resourceType: 'customer',
          resourceId: customer.id,
          data: view,
          at: now,
        });
        return view;
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        const existing = await repo.findCustomerIdByTaxId(db, tenant, taxId);
        throw new AppError(
          'customer_exists',
          existing
            ? `A customer with this taxId already exists in this environment: ${existing}`
            : 'A customer with this taxId already exists in this environment',
          existing ? { extra: { customerId: existing } } : {},
        );
      }
      throw error;
    }
  }

  type TransactionLimits = Awaited<ReturnType<typeof transactionLimits>>;

  /** Limits in force (defaults for the type, replaced by the latest grants) and what is used of them. */
  async function transactionLimits(row: repo.CustomerWithVerification) {
    // One snapshot: the grants and the usage are read as of the same moment.
    const { max, used } = await db.transaction(
      async (tx) => ({
        max: await limitsInForce(tx, row.id, config.defaultLimits[row.type]),
        used: await readLimitUsage(tx, row.id, clock()),
      }),
      { isolation: 'repeatable read' },
    );
    const period = (limit: bigint, usage: bigint) => ({
      max: formatAmount(limit),
      used: formatAmount(usage),
      remaining: formatAmount(limit > usage ? limit - usage : 0n),
    });
    return {
      single: { max: formatAmount(max.single) },
      daily: period(max.daily, used.daily),
      monthly: period(max.monthly, used.monthly),
    };
  }

  async function get(
    tenant: Tenant,
    id: string,
    options: { includeTransactionLimits?: boolean } = {},
  ): Promise<CustomerAnswer & { transactionLimits?: TransactionLimits }> {
    const { customer: row, attachments } = await readCustomer({ customer: { tenant, id }, attachments: id });
    if (!row) throw notFound('Customer');
    const view = presentCustomerWithRequirements(row, link, requirementsFrom(row, attachments));
    return options.includeTransactionLimits
      ? { ...view, transactionLimits: await transactionLimits(row) }
      : view;
  }

  async function list(tenant: Tenant, page: PageRequest): Promise<PageResult<CustomerAnswer>> {
    const { rows, total } = await readPage({ tenant, window: listWindow(page) });
    const answered = rows.map((row) =>
      presentCustomerWithRequirements(row, link, requirementsFrom(row, attachmentFacts.decode(row))),
    );
    return pageResult(page, answered, total);
  }

  /** Search by name, taxId (with or without punctuation) or e-mail, within the tenant. */
  async function search(
    tenant: Tenant,
    text: string,
    page: PageRequest,
  ): Promise<PageResult<CustomerAnswer>> {
    const { rows, total } = await repo.searchCustomers(db, tenant, text.trim(), page.limit, page.offset);
    return pageResult(page, await answers(rows), total);
  }

  /** The names of the tenant's customers among `ids` (a page's worth), by id. */
  function names(tenant: Tenant, ids: string[]): Promise<Map<string, string>> {
    return repo.customerNames(db, tenant, [...new Set(ids)]);
  }

  return { create, get, list, search, names };
}

/**
 * The operator's search of customers across tenants, within `scope` (a project, an environment, or every
 * one): by name, taxId (with or without punctuation) or e-mail, as a partner's `search` is.
 */
export async function searchCustomersAcross(
  db: Executor,
  scope: repo.CustomerScope,
  text: string,
  page: PageRequest,
): Promise<PageResult<{ id: string; name: string; email: string }>> {
  const { rows, total } = await repo.searchCustomers(db, scope, text.trim(), page.limit, page.offset);
  return pageResult(
    page,
    rows.map((row) => ({ id: row.id, name: row.name, email: row.email })),
    total,
  );
}

/** What other modules may read of a customer: their row, found or locked within their transaction. */
export type { CustomerRow, CustomerType, CustomerWithVerification } from './repo.ts';

export function findCustomer(
  db: Executor,
  tenant: Tenant,
  id: string,
): Promise<CustomerWithVerification | undefined> {
  return repo.findCustomer(db, tenant, id);
}

/** Locks the customer row: serialises changes that depend on the customer's state (limits, requests). */
export function lockCustomer(
  db: Executor,
  tenant: Tenant,
  id: string,
): Promise<CustomerWithVerification | undefined> {
  return repo.lockCustomer(db, tenant, id);
}

/**
 * Locks several customers, each of its own tenant, with one statement: the rows found. The rows are
 * locked in id order, so that two such statements never wait on each other in a cycle.
 */
export function lockCustomers(
  db: Executor,
  keys: readonly { tenant: Tenant; id: string }[],
): Promise<CustomerWithVerification[]> {
  return repo.lockCustomers(db, keys);
}

/** The customer found (locked) for a money movement: 404 when none, 409 unless verification is APPROVED. */
export function approvedForMovements(
  customer: repo.CustomerWithVerification | undefined,
  movements: string,
): repo.CustomerWithVerification {
  if (!customer) throw notFound('Customer');
  if (customer.verification_status !== 'APPROVED') {
    throw new AppError(
      'customer_not_approved',
      `The customer's verification is ${customer.verification_status}; ${movements} need it APPROVED`,
    );
  }
  return customer;
}

/**
 * Records `customer.updated` with the customer as the API answers it now (its terms and requirements
 * changed), in the transaction of the change.
 */
export async function recordCustomerUpdated(
  tx: Executor,
  link: LinkMinter,
  tenant: Tenant,
  customerId: string,
  at: Date,
): Promise<void> {
  const row = await repo.findCustomer(tx, tenant, customerId);
  if (!row) throw notFound('Customer');
  const [requirements = []] = await requirementsOf(tx, [row]);
  await recordEvent(tx, {
    tenant,
    type: 'customer.updated',
    resourceType: 'customer',
    resourceId: customerId,
    data: presentCustomerWithRequirements(row, link, requirements),
    at,
  });
}

export type { CustomerAnswer, LinkMinter } from './presenter.ts';
