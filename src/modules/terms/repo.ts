import type { Executor } from '../../db/types.ts';

export type TermsLinkRow = {
  id: string;
  customer_id: string;
  token_sha256: string;
  redirect_url: string | null;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
};

export async function insertTermsLink(db: Executor, row: TermsLinkRow): Promise<void> {
  await db.query(
    `INSERT INTO tos_links (id, customer_id, token_sha256, redirect_url, expires_at, used_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      row.id,
      row.customer_id,
      row.token_sha256,
      row.redirect_url,
      row.expires_at,
      row.used_at,
      row.created_at,
    ],
  );
}

export type TermsPageRow = TermsLinkRow & {
  customer_name: string;
  /** the name the project's customers see (its display name), null when unset */
  project_name: string | null;
  project_id: string;
  environment: 'sandbox' | 'production';
  tos_accepted_at: Date | null;
};

const SELECT = `SELECT l.id, l.customer_id, l.token_sha256, l.redirect_url, l.expires_at, l.used_at, l.created_at,
       c.name AS customer_name, p.display_name AS project_name, c.project_id, c.environment, c.tos_accepted_at
  FROM tos_links l JOIN customers c ON c.id = l.customer_id JOIN projects p ON p.id = c.project_id`;

/** The link of a token, in the environment of the listener that serves it. */
export async function findTermsLink(
  db: Executor,
  tokenSha256: string,
  environment: string,
): Promise<TermsPageRow | undefined> {
  const rows = await db.query<TermsPageRow>(`${SELECT} WHERE l.token_sha256 = $1 AND c.environment = $2`, [
    tokenSha256,
    environment,
  ]);
  return rows[0];
}

/** Uses the link once: the row when it was unused and unexpired at `at`, locked; otherwise nothing. */
export async function useTermsLink(db: Executor, id: string, at: Date): Promise<TermsLinkRow | undefined> {
  const rows = await db.query<TermsLinkRow>(
    `UPDATE tos_links SET used_at = $2 WHERE id = $1 AND used_at IS NULL AND expires_at > $2
     RETURNING id, customer_id, token_sha256, redirect_url, expires_at, used_at, created_at`,
    [id, at],
  );
  return rows[0];
}
