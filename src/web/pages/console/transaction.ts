/** A transaction of any project, with its project and environment named. */
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { notFound } from '../../../core/errors.ts';
import { html } from '../../../lib/html.ts';
import { quoteReference } from '../../../modules/pricing/service.ts';
import { createProjectService } from '../../../modules/projects/service.ts';
import { createTransactionService } from '../../../modules/transactions/read-service.ts';
import type { WebApp } from '../../kit/surface.ts';
import { transactionDetail } from '../shared/transaction-detail.ts';
import { sendConsole } from './frame.ts';

export const schema = { params: Type.Object({ id: Type.String({ format: 'uuid' }) }) };

type Deps = {
  db: AppContext['db'];
  transactions: ReturnType<typeof createTransactionService>;
  projects: ReturnType<typeof createProjectService>;
};

export async function load({ db, transactions, projects }: Deps, id: string) {
  const [found] = (await transactions.search({}, { id }, { page: 1, limit: 1, offset: 0 })).data;
  if (!found) throw notFound('Transaction');
  const project = await projects.getProject(found.projectId);
  const { request } = found.transaction;
  const reference = await quoteReference(
    db,
    { projectId: found.projectId, environment: found.environment },
    'exchangeRateId' in request ? request.exchangeRateId : null,
  );
  return { found, project, reference };
}

export function view({ found, project, reference }: Awaited<ReturnType<typeof load>>) {
  const tx = found.transaction;
  return transactionDetail(tx, {
    customer: html`<code>${tx.customerId}</code> <a href="/console/transactions?customerId=${tx.customerId}">(its transactions)</a>`,
    partnerFeeLabel: 'Partner fee',
    reference,
    extra: html`<dt>Project</dt><dd><a href="/console/projects/${project.id}">${project.name}</a></dd><dt>Environment</dt><dd>${found.environment}</dd>`,
  });
}

export function register(app: WebApp, ctx: AppContext) {
  const deps = {
    db: ctx.db,
    transactions: createTransactionService(ctx),
    projects: createProjectService(ctx),
  };
  app.get('/console/transactions/:id', { schema }, async (request, reply) => {
    const data = await load(deps, request.params.id);
    const title = `Transaction ${data.found.transaction.id.slice(0, 8)}`;
    return sendConsole(request, reply, title, await view(data));
  });
}
