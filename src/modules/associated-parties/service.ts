/**
 * Associated parties of a BUSINESS customer: the people and
 * companies that own, control or represent it. Each INDIVIDUAL party gets its own verification and hosted
 * link; ownership chains run through BUSINESS parties (parentId). Every change locks the customer and its
 * verification first, so that the ownership sums and the approval rule are decided on what is committed.
 */
import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, type FieldError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { listWindow, type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { normalizeCnpj, normalizeCpf } from '../../lib/tax-id.ts';
import { findCustomer, type LinkMinter, lockCustomer, recordCustomerUpdated } from '../customers/service.ts';
import { recordEvent } from '../events/outbox.ts';
import { screenSubject } from '../screening/service.ts';
import { lockCustomerVerification, settleCustomer } from '../verifications/kyb.ts';
import type { PartyRole, PartyType } from '../verifications/kyb-rules.ts';
import { openVerification } from '../verifications/service.ts';
import { emptyStatusReason } from '../verifications/state.ts';
import { type PartyView, presentParty } from './presenter.ts';
import type { PartyWithVerification } from './repo.ts';
import * as repo from './repo.ts';

export type CreatePartyInput = {
  type: PartyType;
  role: PartyRole;
  name: string;
  taxId: string;
  birthDate?: string | undefined;
  incorporationDate?: string | undefined;
  email: string;
  address: repo.Address;
  ownershipPercentage?: number | undefined;
  parentId?: string | undefined;
};

const TWO_DECIMALS = /^\d{1,3}(\.\d{1,2})?$/;

/** The body's own rules (no database): 400 naming every problem. */
function validate(input: CreatePartyInput, today: string): { taxId: string; ownership: number | null } {
  const errors: FieldError[] = [];
  if (input.type === 'INDIVIDUAL' && input.incorporationDate !== undefined)
    errors.push({ pointer: '/body/incorporationDate', message: 'is only for BUSINESS parties' });
  if (input.type === 'BUSINESS' && input.birthDate !== undefined)
    errors.push({ pointer: '/body/birthDate', message: 'is only for INDIVIDUAL parties' });
  for (const [field, value] of [
    ['birthDate', input.birthDate],
    ['incorporationDate', input.incorporationDate],
  ] as const) {
    if (value !== undefined && value > today)
      errors.push({ pointer: `/body/${field}`, message: 'must not be in the future' });
  }
  if (input.name.trim() === '') errors.push({ pointer: '/body/name', message: 'must not be blank' });
  let taxId = input.taxId.trim();
  if (input.address.country === 'BRA') {
    const normalized = input.type === 'INDIVIDUAL' ? normalizeCpf(taxId) : normalizeCnpj(taxId);
    if (normalized) taxId = normalized;
    else
      errors.push({
        pointer: '/body/taxId',
        message: input.type === 'INDIVIDUAL' ? 'is not a valid CPF' : 'is not a valid CNPJ',
      });
  } else if (taxId === '') errors.push({ pointer: '/body/taxId', message: 'must not be blank' });
  let ownership: number | null = null;
  const percentage = input.ownershipPercentage;
  if (input.role === 'REPRESENTATIVE') {
    if (percentage !== undefined)
      errors.push({
        pointer: '/body/ownershipPercentage',
        message: 'is only for UBO and SHAREHOLDER parties',
      });
    if (input.parentId !== undefined)
      errors.push({ pointer: '/body/parentId', message: 'is only for UBO and SHAREHOLDER parties (owners)' });
  } else if (percentage === undefined) {
    errors.push({ pointer: '/body/ownershipPercentage', message: `is required for a ${input.role}` });
  } else if (!TWO_DECIMALS.test(String(percentage)) || percentage <= 0 || percentage > 100) {
    errors.push({
      pointer: '/body/ownershipPercentage',
      message: 'must be above 0 and at most 100, with at most two decimals',
    });
  } else {
    ownership = Math.round(percentage * 100);
  }
  if (errors.length > 0) throw new AppError('invalid_request', 'The request body is invalid', { errors });
  return { taxId, ownership };
}

export function createAssociatedPartyService(deps: {
  db: Database;
  clock: Clock;
  link: LinkMinter;
  config: Pick<Config, 'screening'>;
}) {
  const { db, clock, link, config } = deps;

  async function create(tenant: Tenant, customerId: string, input: CreatePartyInput): Promise<PartyView> {
    const now = clock();
    const { taxId, ownership } = validate(input, now.toISOString().slice(0, 10));
    return db.transaction(async (tx) => {
      const customer = await lockCustomer(tx, tenant, customerId);
      if (!customer) throw notFound('Customer');
      if (customer.type !== 'BUSINESS') {
        throw new AppError(
          'customer_not_business',
          'Associated parties belong to BUSINESS customers; this customer is INDIVIDUAL',
        );
      }
      await lockCustomerVerification(tx, customerId);
      const parties = await repo.listParties(tx, tenant, customerId);
      const parentId = input.parentId?.toLowerCase() ?? null;
      const parent = parentId === null ? undefined : parties.find((party) => party.id === parentId);
      if (parentId !== null && (parent?.type !== 'BUSINESS' || parent.ownership === null)) {
        throw new AppError('invalid_request', 'The request body is invalid', {
          errors: [
            {
              pointer: '/body/parentId',
              message:
                'must be a BUSINESS party of this customer that owns a share of it (UBO or SHAREHOLDER)',
            },
          ],
        });
      }
      // A company cannot own, directly or through others, a company that owns it.
      if (input.type === 'BUSINESS') {
        const chain = [customer.tax_id];
        for (let up = parent; up; up = parties.find((party) => party.id === up!.parent_id))
          chain.push(up.tax_id);
        if (chain.includes(taxId)) {
          throw new AppError(
            'ownership_cycle',
            `The company ${taxId} already owns, directly or through its parents, the company it would own: ` +
              'ownership cannot go round in a cycle',
          );
        }
      }
      if (ownership !== null) {
        const siblings = parties.filter((party) => party.parent_id === parentId && party.ownership !== null);
        const held = siblings.reduce((sum, party) => sum + Number(party.ownership), 0);
        if (held + ownership > 10_000) {
          const owner = parent ? `the party ${parent.name}` : 'the customer';
          throw new AppError(
            'ownership_exceeded',
            `Direct ownership of ${owner} would reach ${((held + ownership) / 100).toFixed(2)}%; ` +
              `at most ${((10_000 - held) / 100).toFixed(2)}% remains`,
          );
        }
      }
      const row: repo.PartyRow = {
        id: newId(),
        customer_id: customerId,
        project_id: tenant.projectId,
        environment: tenant.environment,
        type: input.type,
        role: input.role,
        name: input.name.trim(),
        tax_id: taxId,
        birth_date: input.birthDate ?? null,
        incorporation_date: input.incorporationDate ?? null,
        email: input.email.trim(),
        address: input.address,
        ownership,
        parent_id: parentId,
        created_at: now,
        updated_at: now,
      };
      await repo.insertParty(tx, row);
      // a possible sanctions match holds the customer's money movements until an operator decides
      await screenSubject(
        tx,
        {
          type: 'ASSOCIATED_PARTY',
          id: row.id,
          customerId,
          tenant,
          party: {
            name: row.name,
            kind: row.type,
            birthDate: row.birth_date,
            country: row.address.country,
          },
        },
        config.screening.threshold,
        now,
      );
      let verificationId: string | null = null;
      if (input.type === 'INDIVIDUAL') {
        verificationId = newId();
        await openVerification(tx, {
          id: verificationId,
          customer_id: customerId,
          associated_party_id: row.id,
          project_id: tenant.projectId,
          environment: tenant.environment,
          status: 'NOT_STARTED',
          level: 'STANDARD',
          status_reason: emptyStatusReason(),
          created_at: now,
          updated_at: now,
          // as for customers: the sandbox decides the party's outcome from its taxId's last digit
          sandbox_due_at: tenant.environment === 'sandbox' ? now : null,
        });
      }
      const view = presentParty(
        {
          ...row,
          verification_id: verificationId,
          verification_status: verificationId ? 'NOT_STARTED' : null,
        },
        [...parties, row],
        link,
      );
      await recordEvent(tx, {
        tenant,
        type: 'associated_party.created',
        resourceType: 'associated_party',
        resourceId: row.id,
        data: view,
        at: now,
      });
      await recordCustomerUpdated(tx, link, tenant, customerId, now);
      return view;
    });
  }

  async function list(tenant: Tenant, customerId: string, page: PageRequest): Promise<PageResult<PartyView>> {
    const parties = await readAll(tenant, customerId);
    const views = parties.map((party) => presentParty(party, parties, link)).reverse();
    const window = listWindow(page);
    const { after } = window;
    // newest first (createdAt, then id, descending): by keyset, the parties after the cursor
    const from = after
      ? views.findIndex((view) => {
          const at = Date.parse(view.createdAt);
          const then = after.createdAt.getTime();
          return at < then || (at === then && view.id < after.id);
        })
      : window.offset;
    const start = from === -1 ? views.length : from;
    return pageResult(page, views.slice(start, start + window.limit), views.length);
  }

  async function get(tenant: Tenant, customerId: string, id: string): Promise<PartyView> {
    const parties = await readAll(tenant, customerId);
    const party = parties.find((row) => row.id === id.toLowerCase());
    if (!party) throw notFound('Associated party');
    return presentParty(party, parties, link);
  }

  /** Every party of the customer (oldest first); 404 when the customer is not the tenant's. */
  async function readAll(tenant: Tenant, customerId: string) {
    if (!(await findCustomer(db, tenant, customerId))) throw notFound('Customer');
    return repo.listParties(db, tenant, customerId);
  }

  async function remove(tenant: Tenant, customerId: string, id: string): Promise<void> {
    await db.transaction(async (tx) => {
      const at = clock();
      const customer = await lockCustomer(tx, tenant, customerId);
      if (!customer) throw notFound('Customer');
      const verification = await lockCustomerVerification(tx, customerId);
      const parties = await repo.listParties(tx, tenant, customerId);
      const party = parties.find((row) => row.id === id.toLowerCase());
      if (!party) throw notFound('Associated party');
      if (verification?.status === 'APPROVED') {
        throw new AppError(
          'customer_approved',
          'The customer is APPROVED: its associated parties are on record and can no longer be removed',
        );
      }
      const owned = parties.filter((row) => row.parent_id === party.id);
      if (owned.length > 0) {
        throw new AppError(
          'conflict',
          `The party owns ${owned.length} other associated part${owned.length === 1 ? 'y' : 'ies'}; remove those first`,
        );
      }
      await repo.markDeleted(tx, party.id, at);
      // without this party the customer may now meet the approval rule
      await settleCustomer(tx, customerId, at);
      await recordCustomerUpdated(tx, link, tenant, customerId, at);
    });
  }

  return { create, list, get, remove };
}

export { partyFact, presentParty } from './presenter.ts';
export type { PartyWithVerification } from './repo.ts';

/** A party of any tenant by id (operators), with its customer's tenant. */
export function findPartyById(db: Executor, id: string): Promise<PartyWithVerification | undefined> {
  return repo.findPartyById(db, id);
}

/** The customer's parties (not deleted), oldest first: the order an ownership tree is drawn in. */
export function listParties(
  db: Executor,
  tenant: Tenant,
  customerId: string,
): Promise<PartyWithVerification[]> {
  return repo.listParties(db, tenant, customerId);
}
