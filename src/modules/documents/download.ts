import type { FastifyReply } from 'fastify';

/** `Content-Disposition` for a stored file name: an ASCII fallback and the exact UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Sends stored bytes as a download that a browser never renders or sniffs in the API's origin. */
export function sendFile(
  reply: FastifyReply,
  file: { contentType: string; fileName: string; content: Buffer },
): FastifyReply {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', contentDisposition(file.fileName))
    .header('content-length', String(file.content.length))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    .send(file.content);
}
