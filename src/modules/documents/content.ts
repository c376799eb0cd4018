/**
 * What a file is, recognised from its bytes (file-type), never from its name or declared type: a PNG
 * renamed `statement.pdf` is a PNG, and a text file renamed `photo.jpg` is refused.
 */
import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../core/errors.ts';
import { CONTENT_TYPES, type ContentType } from './kinds.ts';

const DESCRIBE: Record<ContentType, string> = {
  'application/pdf': 'PDF',
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
};

/**
 * The content type recognised from the bytes, when it is one of `accepted`; otherwise 415 naming the
 * file's field.
 */
export async function detectContentType(
  content: Buffer,
  pointer: string,
  accepted: readonly ContentType[] = CONTENT_TYPES,
): Promise<ContentType> {
  const detected = await fileTypeFromBuffer(content);
  const mime = detected?.mime as ContentType | undefined;
  if (mime && accepted.includes(mime)) return mime;
  const names = accepted.map((type) => DESCRIBE[type]);
  const allowed = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');
  throw new AppError('unsupported_media_type', `The file must be a ${allowed} file`, {
    errors: [{ pointer, message: `must be a ${allowed} file (recognised from its content)` }],
  });
}

export const sha256OfBytes = (content: Buffer): string => createHash('sha256').update(content).digest('hex');
