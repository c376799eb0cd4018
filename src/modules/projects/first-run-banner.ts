/**
 * What a first run prints, once: the Default project's id and sandbox key, the bootstrap operator token
 * (when none is configured), a request to try, where the API and operator references are, and the first
 * dashboard admin's one-time link.
 */
export type FirstRunBannerInput = {
  projectId: string;
  sandboxKey: string;
  operatorToken: string | null;
  extra?: { email: string; inviteUrl: string } | undefined;
};

export function firstRunBanner(setup: FirstRunBannerInput, sandboxUrl: URL, operatorUrl: URL): string[] {
  return [
    '',
    '  Ponte is set up. These secrets are shown once; store them now.',
    '',
    `  Default project:  ${setup.projectId}`,
    `  Sandbox API key:  ${setup.sandboxKey}`,
    ...(setup.operatorToken ? [`  Operator token:   ${setup.operatorToken}`] : []),
    '',
    '  Try it:',
    `  curl -s -X POST ${new URL('/customers', sandboxUrl)} \\`,
    `    -H 'Authorization: Bearer ${setup.sandboxKey}' -H 'Content-Type: application/json' \\`,
    `    -d '{"type":"INDIVIDUAL","name":"Ana Souza","taxId":"529.982.247-25","country":"BRA","email":"ana@example.com"}'`,
    '',
    `  API reference:          ${new URL('/docs', sandboxUrl)}`,
    `  Operator API reference: ${new URL('/operator/docs', operatorUrl)}`,
    `  Issue another key:      POST ${new URL(`/operator/projects/${setup.projectId}/api-keys`, operatorUrl)} {"environment":"production"}`,
    '',
    ...(setup.extra
      ? [
          `  Dashboard: open this one-time link to set the password of ${setup.extra.email} (admin):`,
          `  ${setup.extra.inviteUrl}`,
          '',
        ]
      : []),
  ];
}
