/** Small files of each kind, recognised by their content, for uploads in tests. */

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A 1×1 JPEG (JFIF). */
export const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////' +
    '////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

/** A one-page PDF. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

/** Plain text, whatever name it is given. */
export const TEXT = Buffer.from('This is not an identity document.\n', 'utf8');

/** A GIF: an image, but not one of the accepted kinds. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A PNG of exactly `size` bytes (the signature, then padding). */
export function pngOfSize(size: number): Buffer {
  const out = Buffer.alloc(size);
  PNG.copy(out, 0, 0, Math.min(PNG.length, size));
  return out;
}

export const MB = 1024 * 1024;

/** A multipart form with the given files and fields. */
export function form(
  files: Record<string, { content: Buffer; name?: string; type?: string }>,
  fields: Record<string, string> = {},
): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  for (const [name, file] of Object.entries(files)) {
    data.append(
      name,
      new Blob([new Uint8Array(file.content)], { type: file.type ?? 'application/octet-stream' }),
      file.name ?? `${name}.bin`,
    );
  }
  return data;
}
