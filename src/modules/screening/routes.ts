/** Operator routes of screening: the list versions in force, the review queue and its decisions. */
import { Type } from 'typebox';
import { pageRequest } from '../../core/pagination.ts';
import { DateTime, IdParams, Nullable, Page, problems, StringEnum, Uuid } from '../../http/schemas.ts';
import type { OperatorPlugin } from '../plugins.ts';
import { recentVersions, versionsInForce } from './list-repo.ts';
import { createScreeningReviewService } from './review.ts';
import { recentRuns } from './runs-repo.ts';
import {
  CaseDecisionBody,
  CaseQueueQuery,
  ListVersionSchema,
  ScreeningCaseDetailSchema,
  ScreeningCaseSchema,
} from './schema.ts';

const operatorSecurity = [{ operatorAuth: [] as string[] }];

export const presentVersion = (row: Awaited<ReturnType<typeof versionsInForce>>[number]) => ({
  id: row.id,
  source: row.source,
  publishedAt: row.published_at?.toISOString() ?? null,
  digest: row.digest,
  entries: row.entries,
  names: row.names,
  addresses: row.addresses,
  inForce: row.in_force,
  importedAt: row.imported_at.toISOString(),
});

const RunSchema = Type.Object({
  id: Uuid(),
  versionId: Uuid(),
  status: StringEnum(['PENDING', 'DONE']),
  screened: Type.Integer(),
  held: Type.Integer(),
  createdAt: DateTime(),
  finishedAt: Nullable(DateTime()),
});

export const screeningOperatorRoutes: OperatorPlugin = async (app, { ctx }) => {
  const review = createScreeningReviewService(ctx);

  app.get(
    '/operator/screening/lists',
    {
      schema: {
        operationId: 'listScreeningLists',
        tags: ['operator'],
        summary: 'Sanctions list versions: those in force, the latest imports and their re-screening runs',
        description: 'Lists are imported with `npm run screening:import`; nothing is fetched at run time.',
        security: operatorSecurity,
        response: {
          200: Type.Object({
            inForce: Type.Array(ListVersionSchema),
            recent: Type.Array(ListVersionSchema),
            runs: Type.Array(RunSchema),
          }),
          ...problems(401),
        },
      },
    },
    async () => {
      const [inForce, recent, runs] = await Promise.all([
        versionsInForce(ctx.db),
        recentVersions(ctx.db, 20),
        recentRuns(ctx.db, 20),
      ]);
      return {
        inForce: inForce.map(presentVersion),
        recent: recent.map(presentVersion),
        runs: runs.map((run) => ({
          id: run.id,
          versionId: run.version_id,
          status: run.status,
          screened: Number(run.screened),
          held: Number(run.held),
          createdAt: run.created_at.toISOString(),
          finishedAt: run.finished_at?.toISOString() ?? null,
        })),
      };
    },
  );

  app.get(
    '/operator/screening/cases',
    {
      schema: {
        operationId: 'listScreeningCases',
        tags: ['operator'],
        summary: 'Screening review queue: possible matches by status (default OPEN), oldest first',
        security: operatorSecurity,
        querystring: CaseQueueQuery,
        response: { 200: Page(ScreeningCaseSchema), ...problems(400, 401) },
      },
    },
    async (request) => {
      const { status = 'OPEN', customerId, subjectId } = request.query;
      return review.queue({ status, customerId, subjectId }, pageRequest(request.query));
    },
  );

  app.get(
    '/operator/screening/cases/:id',
    {
      schema: {
        operationId: 'getScreeningCase',
        tags: ['operator'],
        summary: 'A screening case with the list entries it matched, side by side',
        security: operatorSecurity,
        params: IdParams,
        response: { 200: ScreeningCaseDetailSchema, ...problems(400, 401, 404) },
      },
    },
    async (request) => review.get(request.params.id),
  );

  app.post(
    '/operator/screening/cases/:id/decision',
    {
      schema: {
        operationId: 'decideScreeningCase',
        tags: ['operator'],
        summary: 'Clear or confirm a possible match',
        description:
          'CLEAR lifts the hold (the subject is not held again for the same entry under the same name); ' +
          "CONFIRM moves the customer's verification (or the bank account's holder) to FINAL_REJECTION, or fails a " +
          'held transfer with its amount back in the wallet, or fails a held deposit uncredited. Both are audited. ' +
          'A case already decided: 409 invalid_state_transition.',
        security: operatorSecurity,
        params: IdParams,
        body: CaseDecisionBody,
        response: { 200: ScreeningCaseSchema, ...problems(400, 401, 404, 409) },
      },
    },
    async (request) => review.decide(request.operator, request.params.id, request.body),
  );
};
