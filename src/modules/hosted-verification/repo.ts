import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import type { VerificationRow } from '../verifications/service.ts';

export type PageVerificationRow = VerificationRow & {
  customer_name: string;
  /** the name the project's customers see (its display name), null when unset */
  project_name: string | null;
  /** whether the customer still has to accept the terms (never for a party's verification) */
  terms_pending: boolean;
  /** the customer's type: a BUSINESS customer's own verification takes company documents */
  customer_type: 'INDIVIDUAL' | 'BUSINESS';
};

/** The verification a hosted-page link names, in the environment of the listener that served the link. */
export async function findVerificationForPage(
  db: Executor,
  id: string,
  environment: Environment,
): Promise<PageVerificationRow | undefined> {
  const rows = await db.query<PageVerificationRow>(
    `SELECT v.id, coalesce(v.customer_id, ap.customer_id) AS customer_id, v.associated_party_id,
            v.project_id, v.environment, v.status, v.level, v.status_reason, v.created_at, v.updated_at,
            coalesce(ap.name, c.name) AS customer_name, p.display_name AS project_name, c.type AS customer_type,
            (ap.id IS NULL AND c.tos_required AND c.tos_accepted_at IS NULL) AS terms_pending
       FROM verifications v
       LEFT JOIN associated_parties ap ON ap.id = v.associated_party_id
       JOIN customers c ON c.id = coalesce(v.customer_id, ap.customer_id)
       JOIN projects p ON p.id = v.project_id
      WHERE v.id = $1 AND v.environment = $2`,
    [id, environment],
  );
  return rows[0];
}

/** The customer of a verification of the tenant, for the sandbox simulation route. */
export async function findVerificationIdOfCustomer(
  db: Executor,
  tenant: { projectId: string; environment: Environment },
  customerId: string,
): Promise<string | undefined> {
  const rows = await db.query<{ id: string }>(
    `SELECT v.id FROM verifications v
      WHERE v.customer_id = $1 AND v.project_id = $2 AND v.environment = $3`,
    [customerId, tenant.projectId, tenant.environment],
  );
  return rows[0]?.id;
}
