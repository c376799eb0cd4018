/** A submitted document's content, for the review pages to show inline: sandboxed, never cached. */
import type { AppContext } from '../../../context.ts';
import { createOperatorDocumentService } from '../../../modules/documents/service.ts';
import type { WebApp } from '../../kit/surface.ts';
import { IdParams } from './reviews.ts';

export const schema = { params: IdParams };

export function register(app: WebApp, ctx: AppContext) {
  const documents = createOperatorDocumentService(ctx);
  app.get('/console/documents/:id/content', { schema }, async (request, reply) => {
    const file = await documents.content(request.params.id);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', 'inline')
      .header('content-security-policy', "default-src 'none'; frame-ancestors 'self'; sandbox")
      .header('x-frame-options', 'SAMEORIGIN')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(file.content);
  });
}
