/**
 * Reading uploads (multipart/form-data) at the HTTP edge: the named file parts into memory, each cut
 * off at 3 MB, and the named text fields. What the files are is decided later, from their bytes.
 */
import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, type FieldError } from '../../core/errors.ts';
import { MAX_DOCUMENT_BYTES } from './kinds.ts';

export type UploadedFile = { fileName: string; content: Buffer };
export type Upload = { files: Map<string, UploadedFile>; fields: Map<string, string> };

const MAX_FIELD_BYTES = 1024;

/** Registers multipart parsing in the calling plugin's scope, with the document limits. */
export async function registerUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: MAX_DOCUMENT_BYTES, fieldSize: MAX_FIELD_BYTES, fields: 10, files: 4, parts: 14 },
  });
}

const LIMIT_CODES = new Set(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT']);

/** A file name safe to store and show again: no path, no control characters, at most 255 characters. */
export function cleanFileName(raw: string | undefined, fallback: string): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (cleaned.length > 0 ? cleaned : fallback).slice(0, 255);
}

/** What an upload is, for an idempotency fingerprint: its fields, and its files by name and digest. */
export function uploadContent(upload: Upload): unknown {
  return {
    fields: Object.fromEntries(upload.fields),
    files: Object.fromEntries(
      [...upload.files].map(([name, file]) => [
        name,
        { fileName: file.fileName, sha256: createHash('sha256').update(file.content).digest('hex') },
      ]),
    ),
  };
}

/** Uploads already read, per request: the idempotency check reads one before the handler does. */
const readUploads = new WeakMap<FastifyRequest, Promise<Upload>>();

/** Which parts an upload takes: files required, files that may be left out, and text fields. */
type UploadSpec = { files: readonly string[]; optionalFiles?: readonly string[]; fields: readonly string[] };

/**
 * Reads the request's parts (once per request; a second call answers the same upload). Unknown fields, repeated parts and empty files are refused with 400;
 * a file over 3 MB with 413; a request that is not multipart/form-data with 415.
 */
export function readUpload(request: FastifyRequest, spec: UploadSpec): Promise<Upload> {
  let upload = readUploads.get(request);
  if (!upload) {
    upload = readParts(request, spec);
    readUploads.set(request, upload);
  }
  return upload;
}

async function readParts(request: FastifyRequest, spec: UploadSpec): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new AppError('unsupported_media_type', 'Send the upload as multipart/form-data');
  }
  const upload: Upload = { files: new Map(), fields: new Map() };
  const errors: FieldError[] = [];
  try {
    for await (const part of request.parts()) {
      const pointer = `/body/${part.fieldname}`;
      const known = part.type === 'file' ? [...spec.files, ...(spec.optionalFiles ?? [])] : spec.fields;
      const seen = part.type === 'file' ? upload.files : upload.fields;
      if (!known.includes(part.fieldname) || seen.has(part.fieldname)) {
        if (part.type === 'file') part.file.resume();
        errors.push({
          pointer,
          message: known.includes(part.fieldname) ? 'is given more than once' : 'is not a known field',
        });
        continue;
      }
      if (part.type === 'file') {
        const content = await part.toBuffer();
        // A form's file input left empty is sent as a part with no file name and no content: not a file.
        if (content.length === 0 && !part.filename) continue;
        if (content.length === 0) errors.push({ pointer, message: 'must not be empty' });
        upload.files.set(part.fieldname, { fileName: cleanFileName(part.filename, part.fieldname), content });
      } else {
        if (part.valueTruncated)
          errors.push({ pointer, message: `must be at most ${MAX_FIELD_BYTES} bytes` });
        upload.fields.set(part.fieldname, String(part.value));
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('payload_too_large', `A file may be at most ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB`);
    }
    if (code && LIMIT_CODES.has(code)) {
      throw new AppError('invalid_request', 'The upload has too many parts', {
        errors: [{ pointer: '/body', message: 'has too many parts' }],
      });
    }
    if (code === 'FST_PROTO_VIOLATION') {
      throw new AppError('invalid_request', 'The upload is invalid', {
        errors: [{ pointer: '/body', message: 'names a forbidden field' }],
      });
    }
    // Anything else here is the form itself failing to parse: no boundary, a truncated or malformed part.
    throw new AppError('invalid_request', 'The upload is not a valid multipart/form-data body', {
      errors: [{ pointer: '/body', message: 'is not valid multipart/form-data' }],
    });
  }
  for (const name of spec.files) {
    if (!upload.files.has(name)) errors.push({ pointer: `/body/${name}`, message: 'is required' });
  }
  if (errors.length > 0) throw new AppError('invalid_request', 'The upload is invalid', { errors });
  return upload;
}
