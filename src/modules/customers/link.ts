import { type Config, publicUrl } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import type { Environment } from '../../lib/environment.ts';
import type { InstanceKeys } from '../../lib/instance-keys.ts';
import { signLinkToken } from '../../lib/signed-link.ts';
import type { LinkMinter } from './presenter.ts';

const LINK_LIFETIME_MS = 7 * 24 * 3600_000;
const HOUR_MS = 3600_000;

/** Links remembered per minter: a page of customers reads up to a hundred, each an HMAC and a URL. */
const CACHE_SIZE = 10_000;

/**
 * Mints hosted-page links on the public address of the environment. The expiry is rounded up to the
 * hour so that reads within the same hour answer the same link, which is therefore remembered until the
 * hour's expiry moves on.
 */
export function verificationLinkMinter(
  deps: { config: Config; clock: Clock; instanceKeys: InstanceKeys },
  environment: Environment,
): LinkMinter {
  const base = publicUrl(deps.config, environment);
  let cachedExpiry = 0;
  const cache = new Map<string, string>();
  return (verificationId) => {
    const expires = Math.ceil((deps.clock().getTime() + LINK_LIFETIME_MS) / HOUR_MS) * HOUR_MS;
    if (expires !== cachedExpiry || cache.size >= CACHE_SIZE) {
      cache.clear();
      cachedExpiry = expires;
    }
    const known = cache.get(verificationId);
    if (known !== undefined) return known;
    const token = signLinkToken(deps.instanceKeys.linkSigning, verificationId, new Date(expires));
    const link = new URL(`/verify/${token}`, base).toString();
    cache.set(verificationId, link);
    return link;
  };
}
