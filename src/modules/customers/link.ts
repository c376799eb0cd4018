import { type Config, publicUrl } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Environment } from '../../lib/environment.ts';
import type { InstanceKeys } from '../../lib/instance-keys.ts';
import { signLinkToken } from '../../lib/signed-link.ts';
import type { LinkMinter } from './presenter.ts';

const LINK_LIFETIME_MS = 7 * 24 * 3600_000;
const HOUR_MS = 3600_000;

/**
 * Mints hosted-page links on the public address of the environment. The expiry is rounded up to the
 * hour so that reads within the same hour answer the same link.
 */
export function verificationLinkMinter(
  deps: { config: Config; clock: Clock; instanceKeys: InstanceKeys },
  environment: Environment,
): LinkMinter {
  const base = publicUrl(deps.config, environment);
  return (verificationId) => {
    const expires = Math.ceil((deps.clock().getTime() + LINK_LIFETIME_MS) / HOUR_MS) * HOUR_MS;
    const token = signLinkToken(deps.instanceKeys.linkSigning, verificationId, new Date(expires));
    return new URL(`/verify/${token}`, base).toString();
  };
}
