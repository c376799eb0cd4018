/**
 * Certificates made at test time with the system's `openssl`: a CA standing for the PSP, its server
 * certificate (localhost / 127.0.0.1), and the client certificate it issues to Ponte, as PKCS#12 with a
 * passphrase (Efí's format) and as PEM holding certificate and key. A second, unrelated CA issues a
 * client certificate the PSP must refuse.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type PspCertificates = {
  dir: string;
  /** The CA bundle Ponte trusts for the PSP's server (PONTE_PIX_PSP_CA), also the CA of client certificates. */
  caPath: string;
  ca: string;
  serverKey: string;
  serverCert: string;
  /** The client certificate as PKCS#12 and its passphrase. */
  clientP12Path: string;
  passphrase: string;
  /** The same certificate and key in one PEM file. */
  clientPemPath: string;
  /** A client certificate from a CA the PSP does not know. */
  strangerPemPath: string;
  /**
   * The PSP's own client certificate, which it presents to Ponte's webhook address (Efí publishes the
   * chain a TLS terminator must require: dev.efipay.com.br/docs/api-pix/webhooks); issued by the same CA.
   */
  webhookClientKey: string;
  webhookClientCert: string;
};

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

function issue(dir: string, name: string, subject: string, ca: string, ext?: string): void {
  openssl(dir, [
    'req',
    '-new',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    subject,
  ]);
  const args = [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-out',
    `${name}.crt`,
    '-days',
    '2',
  ];
  if (ext) {
    writeFileSync(join(dir, `${name}.ext`), ext);
    args.push('-extfile', `${name}.ext`);
  }
  openssl(dir, args);
}

export function makeCertificates(): PspCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-psp-'));
  for (const ca of ['ca', 'stranger-ca']) {
    openssl(dir, [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${ca}.key`,
      '-out',
      `${ca}.crt`,
      '-days',
      '2',
      '-subj',
      `/CN=${ca} test PSP`,
    ]);
  }
  issue(
    dir,
    'server',
    '/CN=localhost',
    'ca',
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n',
  );
  issue(dir, 'client', '/CN=ponte-client', 'ca', 'extendedKeyUsage=clientAuth\n');
  issue(dir, 'stranger', '/CN=stranger', 'stranger-ca', 'extendedKeyUsage=clientAuth\n');
  issue(dir, 'psp-webhook', '/CN=psp-webhooks', 'ca', 'extendedKeyUsage=clientAuth\n');
  const passphrase = 'p12-passphrase-for-tests';
  openssl(dir, [
    'pkcs12',
    '-export',
    '-inkey',
    'client.key',
    '-in',
    'client.crt',
    '-out',
    'client.p12',
    '-passout',
    `pass:${passphrase}`,
  ]);
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  writeFileSync(join(dir, 'client.pem'), read('client.crt') + read('client.key'));
  writeFileSync(join(dir, 'stranger.pem'), read('stranger.crt') + read('stranger.key'));
  return {
    dir,
    caPath: join(dir, 'ca.crt'),
    ca: read('ca.crt'),
    serverKey: read('server.key'),
    serverCert: read('server.crt'),
    clientP12Path: join(dir, 'client.p12'),
    passphrase,
    clientPemPath: join(dir, 'client.pem'),
    strangerPemPath: join(dir, 'stranger.pem'),
    webhookClientKey: read('psp-webhook.key'),
    webhookClientCert: read('psp-webhook.crt'),
  };
}
