/**
 * `npm run pix:check` (`-- --sandbox` for the sandbox's PSP): the pre-flight an operator runs before going
 * live. Reads the same variables as the service (`PONTE_PIX_*`, or `PONTE_SANDBOX_PIX_*`), prints what
 * works and what does not with the fix for each, and exits 0 only when everything a live rail needs works.
 * It moves no money.
 */
import { PspConfigError, parsePspConfig } from '../src/rails/pix/psp/config.ts';
import { preflight, report } from '../src/rails/pix/psp/preflight.ts';

const sandbox = process.argv.includes('--sandbox');
const prefix = sandbox ? 'PONTE_SANDBOX_PIX_' : 'PONTE_PIX_';

try {
  const config = parsePspConfig(process.env, prefix);
  if (!config) {
    process.stdout.write(
      `${prefix}PSP is not set: no PSP is configured for the ${sandbox ? 'sandbox' : 'production'} rail.\n`,
    );
    process.exit(1);
  }
  const findings = await preflight(config);
  process.stdout.write(
    `${report(findings, `${sandbox ? 'sandbox' : 'production'}, ${config.psp} at ${config.url.origin}`)}\n`,
  );
  process.exit(findings.every((f) => f.ok) ? 0 : 1);
} catch (error) {
  if (!(error instanceof PspConfigError)) throw error;
  process.stdout.write(`${error.message}\n`);
  process.exit(1);
}
