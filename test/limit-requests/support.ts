/** Test helpers of the limit-request suites. */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/types.ts';
import { updateLimitRequestReview } from '../../src/modules/limit-requests/repo.ts';

/** Takes a request out of review (as compliance would, by rejecting it) so the customer may ask again. */
export async function rejectInDatabase(db: Database, id: string, at = new Date()): Promise<void> {
  await updateLimitRequestReview(db, id, {
    status: 'REJECTED',
    approved: { single: null, daily: null, monthly: null },
    reviewComment: 'Bank statement does not support the requested amounts',
    at,
  });
}

export type StoredEvent = { type: string; resource_type: string; data: unknown };

export async function eventsOf(db: Database, resourceId: string): Promise<StoredEvent[]> {
  return db.query<StoredEvent>(
    'SELECT type, resource_type, data FROM events WHERE resource_id = $1 ORDER BY seq',
    [resourceId],
  );
}

/** How many `limit_request.created` events name this customer. */
export async function createdEventCount(db: Database, customerId: string): Promise<number> {
  const rows = await db.query<{ n: bigint }>(
    "SELECT count(*) AS n FROM events WHERE type = 'limit_request.created' AND data->>'customerId' = $1",
    [customerId],
  );
  return Number(rows[0]!.n);
}

export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** Uploads a small PDF bank statement for a customer through the API; returns the document's id. */
export async function uploadStatement(
  app: FastifyInstance,
  key: string,
  customerId: string,
): Promise<string> {
  const boundary = 'ponte-test-boundary';
  const pdf = '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n';
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nLIMIT_REQUEST_BANK_STATEMENT\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="statement.pdf"\r\n` +
    `Content-Type: application/pdf\r\n\r\n${pdf}\r\n--${boundary}--\r\n`;
  const response = await app.inject({
    method: 'POST',
    url: `/customers/${customerId}/documents`,
    payload: body,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
  });
  if (response.statusCode !== 201) throw new Error(`upload: ${response.statusCode} ${response.body}`);
  return response.json().id;
}
