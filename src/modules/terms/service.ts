/**
 * Terms of service: a
 * single-use link, valid 24 hours, to a hosted page on the public address of the customer's environment
 * where the customer accepts the platform's terms. Only the token's SHA-256 is stored. Acceptance records
 * `tosAcceptedAt` and `customer.updated` in one transaction.
 */
import { type Config, publicUrl } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { Database } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import { randomBase62, sha256Hex } from '../../lib/secrets.ts';
import { findCustomer, type LinkMinter, recordCustomerUpdated } from '../customers/service.ts';
import { acceptTerms } from '../verifications/kyb.ts';
import * as repo from './repo.ts';

export const TERMS_LINK_LIFETIME_MS = 24 * 3600_000;

export type TermsLinkState = 'OPEN' | 'USED' | 'EXPIRED';

export function createTermsService(
  deps: { db: Database; clock: Clock; config: Config; link: LinkMinter },
  environment: Environment,
) {
  const { db, clock, config, link } = deps;

  async function createLink(
    tenant: Tenant,
    customerId: string,
    input: { redirectUrl?: string | undefined },
  ): Promise<{ url: string; expiresAt: string }> {
    const redirect = input.redirectUrl === undefined ? null : checkedRedirect(input.redirectUrl);
    const now = clock();
    const token = randomBase62(43);
    const expiresAt = new Date(now.getTime() + TERMS_LINK_LIFETIME_MS);
    return db.transaction(async (tx) => {
      if (!(await findCustomer(tx, tenant, customerId))) throw notFound('Customer');
      await repo.insertTermsLink(tx, {
        id: newId(),
        customer_id: customerId,
        token_sha256: sha256Hex(token),
        redirect_url: redirect,
        expires_at: expiresAt,
        used_at: null,
        created_at: now,
      });
      return {
        url: new URL(`/tos/${token}`, publicUrl(config, environment)).toString(),
        expiresAt: expiresAt.toISOString(),
      };
    });
  }

  /** The link behind a token and whether it can still be used; null when there is none. */
  async function resolve(token: string): Promise<{ link: repo.TermsPageRow; state: TermsLinkState } | null> {
    if (!/^[0-9A-Za-z]{20,100}$/.test(token)) return null;
    const found = await repo.findTermsLink(db, sha256Hex(token), environment);
    if (!found) return null;
    const state = found.used_at ? 'USED' : found.expires_at <= clock() ? 'EXPIRED' : 'OPEN';
    return { link: found, state };
  }

  /** Accepts the terms through the link, once; false when it was used or expired meanwhile. */
  async function accept(found: repo.TermsPageRow): Promise<boolean> {
    return db.transaction(async (tx) => {
      const at = clock();
      if (!(await repo.useTermsLink(tx, found.id, at))) return false;
      await acceptTerms(tx, found.customer_id, at);
      const tenant = { projectId: found.project_id, environment: found.environment };
      await recordCustomerUpdated(tx, link, tenant, found.customer_id, at);
      return true;
    });
  }

  return { createLink, resolve, accept };
}

/** A redirect after acceptance goes to an http(s) address, never to a script or data URL. */
function checkedRedirect(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new AppError('invalid_request', 'The request body is invalid', {
      errors: [{ pointer: '/body/redirectUrl', message: 'must be an http or https URL' }],
    });
  }
  return url.toString();
}
