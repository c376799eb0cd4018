/** Sends a dashboard page inside its frame, with the signed-in user's project named in it. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Html } from '../../lib/html.ts';
import { findProject } from '../../modules/projects/service.ts';
import { sendHtml } from '../kit/layout.ts';
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
