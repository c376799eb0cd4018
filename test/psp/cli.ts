/**
 * `npm run psp-simulator`: the PSP simulator for local runs. Makes certificates, listens with HTTPS and
 * mutual TLS, and starts a local TLS terminator in front of Ponte's production listener
 * (`PONTE_PRODUCTION_URL`, default http://localhost:8080) standing for the nginx or Caddy of the README:
 * it requires the PSP's client certificate and passes the webhook address and its `/pix` on to Ponte, so
 * that Efí's registration check and notifications go the way they go in production. Prints the variables
 * that point Ponte at both. Commands on standard input: `pay <txid> [valor]` pays a charge;
 * `faults drop|duplicate|reorder on|off`.
 */
import { createInterface } from 'node:readline';
import { makeCertificates } from './certificates.ts';
import { startPspSimulator } from './simulator.ts';
import { startTerminator } from './terminator.ts';

const ponte = new URL(process.env.PONTE_PRODUCTION_URL ?? 'http://localhost:8080');
const certificates = makeCertificates();
const terminator = await startTerminator(
  certificates,
  '/rails/pix/webhook',
  async (request) => {
    const response = await fetch(new URL(request.path, ponte), {
      method: 'POST',
      headers: request.contentType ? { 'content-type': request.contentType } : {},
      body: new Uint8Array(request.body),
    });
    return { status: response.status, body: await response.text() };
  },
  Number(process.env.PSP_TERMINATOR_PORT ?? 9444),
);
const simulator = await startPspSimulator({
  certificates,
  port: Number(process.env.PSP_SIMULATOR_PORT ?? 9443),
});

const env = {
  PONTE_PIX_PSP: 'efi',
  PONTE_PIX_PSP_URL: simulator.url,
  PONTE_PIX_CLIENT_ID: simulator.clientId,
  PONTE_PIX_CLIENT_SECRET: simulator.clientSecret,
  PONTE_PIX_CERT: certificates.clientP12Path,
  PONTE_PIX_CERT_PASSPHRASE: certificates.passphrase,
  PONTE_PIX_PSP_CA: certificates.caPath,
  PONTE_PIX_KEY: 'f3a9c1d2-4b5e-4f60-8a7b-9c0d1e2f3a4b',
  PONTE_PIX_WEBHOOK_URL: terminator.url,
};
process.stdout.write(
  `PSP simulator listening on ${simulator.url} (mutual TLS; certificates in ${certificates.dir})\n`,
);
process.stdout.write(
  `TLS terminator for the webhook on ${terminator.url} (requires the PSP's client certificate; passes on to ${ponte.origin})\n`,
);
process.stdout.write('Start Ponte with:\n\n');
process.stdout.write(
  `${Object.entries(env)
    .map(([k, v]) => `${k}='${v}'`)
    .join(' \\\n')} \\\nnpm start\n\n`,
);
process.stdout.write(
  'Commands: pay <txid> [valor] | faults <drop|duplicate|reorder> <on|off> | flush | violations\n',
);

const lines = createInterface({ input: process.stdin });
lines.on('line', async (line) => {
  const [command, ...args] = line.trim().split(/\s+/);
  try {
    if (command === 'pay' && args[0]) {
      process.stdout.write(`paid: ${await simulator.pay(args[0], args[1])}\n`);
    } else if (command === 'faults' && args[0] && args[1]) {
      const name = args[0] as 'drop' | 'duplicate' | 'reorder';
      simulator.faults[name] = args[1] === 'on';
      process.stdout.write(`${name}: ${simulator.faults[name]}\n`);
    } else if (command === 'flush') {
      await simulator.flush();
    } else if (command === 'violations') {
      process.stdout.write(`${simulator.violations.join('\n') || 'none'}\n`);
    } else if (command) {
      process.stdout.write('unknown command\n');
    }
  } catch (error) {
    process.stdout.write(`error: ${(error as Error).message}\n`);
  }
});

const stop = async () => {
  await simulator.close();
  await terminator.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
