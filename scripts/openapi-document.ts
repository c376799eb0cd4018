/**
 * Writes the OpenAPI documents the public listeners serve:
 * `tsx scripts/openapi-document.ts <sandbox|production> <out.json> [<environment> <out.json> ...]`.
 * Server URLs come from PONTE_PRODUCTION_URL and PONTE_SANDBOX_URL as when serving.
 */
import { writeFileSync } from 'node:fs';
import { ENVIRONMENTS, type Environment } from '../src/lib/environment.ts';
import { buildDocuments } from './openapi-build.ts';

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 2 !== 0) {
  throw new Error('usage: openapi-document.ts <sandbox|production> <out.json> [...]');
}
const targets: { environment: Environment; file: string }[] = [];
for (let i = 0; i < args.length; i += 2) {
  const environment = args[i] as Environment;
  if (!ENVIRONMENTS.includes(environment)) throw new Error(`unknown environment ${args[i]}`);
  targets.push({ environment, file: args[i + 1] as string });
}
const documents = await buildDocuments(
  targets.map((target) => target.environment),
  { production: process.env.PONTE_PRODUCTION_URL, sandbox: process.env.PONTE_SANDBOX_URL },
);
for (const { environment, file } of targets) {
  writeFileSync(file, `${JSON.stringify(documents.get(environment), null, 2)}\n`);
}
