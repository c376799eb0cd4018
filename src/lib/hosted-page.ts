/**
 * The frame of the pages an end customer opens from a link (the hosted verification page, the terms of
 * service page): everything escaped, one inline stylesheet allowed by its hash, no scripts, no external
 * assets, and headers that keep the page (and the token in its address) to itself.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type Html, html } from './html.ts';

const STYLE = `
:root { color-scheme: light; --ink: #1d2433; --muted: #5b6475; --line: #d9dee8; --accent: #0b6e4f;
  --warn: #9a5b00; --bad: #a32020; --bg: #f4f6fa; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 34rem; margin: 3rem auto; background: #fff; border: 1px solid var(--line);
  border-radius: 12px; padding: 2rem 2rem 1.5rem; }
.brand { font-weight: 600; letter-spacing: .02em; color: var(--muted); font-size: .85rem;
  text-transform: uppercase; margin: 0 0 1.25rem; }
.sandbox { background: #fff4d6; border: 1px solid #f0d58a; border-radius: 8px; padding: .5rem .75rem;
  font-size: .85rem; margin: 0 0 1rem; }
h1 { font-size: 1.4rem; margin: 0 0 .5rem; }
p { margin: .5rem 0; }
.status { display: inline-block; border-radius: 999px; padding: .15rem .7rem; font-size: .85rem;
  font-weight: 600; background: #e8ecf3; }
.status.APPROVED { background: #dff3ea; color: var(--accent); }
.status.TEMPORARY_REJECTION { background: #fff1dc; color: var(--warn); }
.status.FINAL_REJECTION { background: #fbe3e3; color: var(--bad); }
.box { border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; margin: 1rem 0; }
.box.warn { border-color: #f0c98a; background: #fffaf1; }
.box.bad { border-color: #efb4b4; background: #fff6f6; }
.box h2 { font-size: 1rem; margin: 0 0 .25rem; }
ul { margin: .25rem 0; padding-left: 1.25rem; }
form { margin-top: 1.25rem; }
label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
.hint { color: var(--muted); font-size: .85rem; font-weight: 400; }
select, input[type=file] { width: 100%; font: inherit; padding: .45rem; border: 1px solid var(--line);
  border-radius: 6px; background: #fff; }
button { margin-top: 1.5rem; width: 100%; font: inherit; font-weight: 600; color: #fff;
  background: var(--accent); border: 0; border-radius: 8px; padding: .7rem; cursor: pointer; }
.link { overflow-wrap: anywhere; }
footer { color: var(--muted); font-size: .8rem; margin-top: 1.5rem; }
`.trim();

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${STYLE_HASH}'`,
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function layout(title: string, body: Html): string {
  return `<!doctype html>
${
  html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<style>${{ safe: STYLE }}</style>
</head>
<body>
${body}
</body>
</html>`.safe
}
`;
}

/** Sends a page with the headers every hosted page carries. */
export function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(page);
}

/**
 * Answers every error on a hosted page's routes as a page, never as problem+json: a person's browser shows
 * it. A body the page never sends (another content type, too large) reads as a request not understood; a
 * failure of ours is logged and shown as one, without detail.
 */
export function answerErrorsAsPages(
  app: FastifyInstance,
  errorPage: (title: string, message: string) => string,
): void {
  app.setErrorHandler((error: Error & { status?: number; statusCode?: number }, request, reply) => {
    // a domain error names its status; a framework error (415, 413, a body that does not parse) its statusCode
    const status =
      (error instanceof Error && typeof error.status === 'number' ? error.status : undefined) ??
      error.statusCode ??
      500;
    if (status >= 500) {
      request.log.error({ err: error }, 'hosted page failed');
      return sendPage(reply, 500, errorPage('Something went wrong', 'Please try again in a few minutes.'));
    }
    return sendPage(
      reply,
      status,
      errorPage('The request was not understood', 'Please go back and try again.'),
    );
  });
}

/**
 * How a page names the partner its customer came from: the project's display name (Settings), or neutral
 * wording when it has none, never the project's internal name. `start` capitalises it for a sentence.
 */
export function partnerName(displayName: string | null, start = false): string {
  if (displayName !== null) return displayName;
  return start ? 'The service that sent you here' : 'the service that sent you here';
}
