/**
 * `GET /operator/backup`: the running process takes a copy of its own database and streams it (the
 * portable format of `src/db/backup/format.ts`). This is how `npm run backup` copies the embedded database while
 * Ponte runs: PGlite's data directory can be opened by one process only, so the process that holds it
 * reads it, in one REPEATABLE READ transaction, and requests wait while it does. On PostgreSQL it serves
 * the same portable copy (the command itself reads PostgreSQL, and writes a pg_dump archive by default). A copy that fails half way ends the response
 * before its manifest, so the file it leaves is refused as incomplete.
 */
import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { copyDatabase } from '../../db/backup/copy.ts';
import { problems } from '../../http/schemas.ts';

export const backupOperatorRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/operator/backup',
    {
      schema: {
        tags: ['operator'],
        summary:
          'A consistent copy of the whole database, streamed (the portable format of `npm run backup`)',
        description:
          'JSON lines: each table with its rows, the sequences, and a closing manifest carrying the schema version and the sha256 of every line before it. The instance secret is not in it. On the embedded database, requests wait while the copy is read.',
        security: [{ operatorAuth: [] as string[] }],
        response: {
          200: { description: 'The copy', content: { 'application/x-ndjson': { schema: Type.String() } } },
          ...problems(401),
        },
      },
    },
    async (request, reply) => {
      const body = new PassThrough();
      const write = (chunk: Buffer) =>
        new Promise<void>((resolve, reject) => {
          if (body.destroyed) return reject(new Error('the client went away'));
          if (body.write(chunk)) return resolve();
          const onClose = () => reject(new Error('the client went away'));
          body.once('close', onClose);
          body.once('drain', () => {
            body.off('close', onClose);
            resolve();
          });
        });
      copyDatabase(ctx.db, write).then(
        (manifest) => {
          request.log.info({ rows: manifest.rows, schemaVersion: manifest.schemaVersion }, 'backup streamed');
          body.end();
        },
        (error: unknown) => {
          request.log.error({ err: error }, 'backup failed half way; the copy ends without its manifest');
          body.destroy(error as Error);
        },
      );
      return reply.header('content-type', 'application/x-ndjson').send(body as unknown as string); // a stream: the schema describes its bytes
    },
  );
};
