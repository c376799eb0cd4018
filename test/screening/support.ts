/** Screening tests: the list fixtures (real formats, fictional entries) and their import. */
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { ImportSource } from '../../src/modules/screening/import-files.ts';
import { importFiles } from '../../src/modules/screening/import-files.ts';
import { screenSubject } from '../../src/modules/screening/service.ts';
import type { TestServer } from '../helpers/server.ts';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
export const OFAC_DIR = `${FIXTURES}ofac`;
export const UN_FILE = `${FIXTURES}un/consolidated.xml`;

/** Listed in the OFAC fixture's remarks (entry 90001: ETH; 90002: USDT and TRX on Tron). */
export const LISTED_EVM = '0x5A11eD0000000000000000000000000000000001';
export const LISTED_TRON = 'TJBTHq2WwaDgtk8LPewYhzH9yNPLSLsu8R';
/** The same key's neighbour, on no list. */
export const UNLISTED_TRON = 'TJBTHq2WwaDgtk8LPewYhzH9yNPLX2YSC6';

export const importFixture = (server: TestServer, source: ImportSource, path: string) =>
  importFiles(server.ctx.db, source, path, server.ctx.clock());

/** The re-screening runs of the database, run to their end by the workers. */
export async function screeningRunsDone(server: TestServer): Promise<boolean> {
  const rows = await server.ctx.db.query<{ n: bigint }>(
    `SELECT count(*) AS n FROM screening_runs WHERE status = 'PENDING'`,
  );
  return Number(rows[0]!.n) === 0;
}

/** OFAC fixture entry 90004. */
export const LISTED = {
  name: 'João Carlos dos Santos da Silva',
  kind: 'INDIVIDUAL',
  birthDate: '1975-02-02',
} as const;

/**
 * Puts a customer on hold the way a re-screening does when a new list version names it: a case opened
 * under the customer's row lock, with its event. Returns the case's id.
 */
export async function putOnHold(
  target: TestServer,
  tenant: { projectId: string; environment: 'sandbox' | 'production' },
  customerId: string,
): Promise<string> {
  const opened = await target.ctx.db.transaction((tx) =>
    screenSubject(
      tx,
      { type: 'CUSTOMER', id: customerId, customerId, tenant, party: { ...LISTED, country: 'BRA' } },
      target.config.screening.threshold,
      target.ctx.clock(),
    ),
  );
  if (!opened) throw new Error('the listed name opened no case');
  return opened.row.id;
}

export async function decide(target: TestServer, caseId: string, decision: 'CLEAR' | 'CONFIRM') {
  const response = await target.operator.inject({
    method: 'POST',
    url: `/operator/screening/cases/${caseId}/decision`,
    payload: { decision, comment: 'reviewed against the list entry' },
    headers: { authorization: `Bearer ${target.operatorToken}` },
  });
  expect(response.statusCode, response.body).toBe(200);
}
