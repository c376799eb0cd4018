/**
 * The PSP simulator for bench runs: production's PIX rail needs a PSP, so every bench that drives
 * production on-ramps, off-ramps or refunds starts one (answers optionally delayed, as a PSP's tens of
 * milliseconds) and hands its variables to the services.
 */
import { makeCertificates } from '../test/psp/certificates.ts';
import { type PspSimulator, startPspSimulator } from '../test/psp/simulator.ts';

export async function startBenchPsp(
  delayMs = 0,
): Promise<{ simulator: PspSimulator; env: NodeJS.ProcessEnv }> {
  const certificates = makeCertificates();
  // benches pay nothing: notifications have nowhere to go
  // the terminator in front of the service refuses the PSP's requests without its client certificate
  const simulator = await startPspSimulator({
    certificates,
    deliver: async (_url, _body, { clientCertificate }) => (clientCertificate ? 200 : 0),
  });
  simulator.faults.delayMs = delayMs;
  return {
    simulator,
    env: {
      PONTE_PIX_PSP: 'efi',
      PONTE_PIX_PSP_URL: simulator.url,
      PONTE_PIX_CLIENT_ID: simulator.clientId,
      PONTE_PIX_CLIENT_SECRET: simulator.clientSecret,
      PONTE_PIX_CERT: certificates.clientP12Path,
      PONTE_PIX_CERT_PASSPHRASE: certificates.passphrase,
      PONTE_PIX_PSP_CA: certificates.caPath,
      PONTE_PIX_KEY: 'f3a9c1d2-4b5e-4f60-8a7b-9c0d1e2f3a4b',
      PONTE_PIX_WEBHOOK_URL: 'https://pix.example.com/rails/pix/webhook',
    },
  };
}
