/** Sends a dashboard page inside its frame, with the signed-in user's project named in it. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { findProject } from '../../modules/projects/repo.ts';
import { type Html, sendHtml } from '../html.ts';
import { dashboardPage } from './frame.ts';

export type Render = (
  request: FastifyRequest,
  reply: FastifyReply,
  title: string,
  body: Html,
  status?: number,
) => Promise<FastifyReply>;

export function createRender(ctx: AppContext): Render {
  return async (request, reply, title, body, status = 200) => {
    const project = await findProject(ctx.db, request.session!.user.project_id!);
    return sendHtml(reply, status, dashboardPage(request, title, body, project?.name ?? ''));
  };
}

/** The page number of a `?page=` query: a whole number from 1, else 1. */
export const pageOf = (raw: unknown, limit = 20) => {
  const page = typeof raw === 'string' && /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : 1;
  return { page, limit, offset: (page - 1) * limit };
};
