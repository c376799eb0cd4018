/**
 * Chain addresses on the lists. OFAC writes them in an entry's remarks as "Digital Currency Address - ETH
 * 0x…" (XBT, ETH, USDT, TRX, USDC, …); the same key controls an address on every EVM chain, so a listed
 * 0x address is listed on all of them. Comparison is exact: EVM addresses without regard to case (the
 * mixed case is a checksum), every other form (Tron's base58, Bitcoin's) exactly as written.
 */

const DIGITAL_CURRENCY = /Digital Currency Address - ([A-Z0-9]{2,10})\s+([A-Za-z0-9]{20,120})/g;
const EVM = /^0x[0-9a-fA-F]{40}$/;

export type ListedAddress = { currency: string; address: string };

export function digitalCurrencyAddresses(remarks: string): ListedAddress[] {
  const found = new Map<string, ListedAddress>();
  for (const match of remarks.matchAll(DIGITAL_CURRENCY)) {
    const [, currency, address] = match;
    found.set(`${currency} ${address}`, { currency: currency!, address: address! });
  }
  return [...found.values()];
}

/** The form an address is compared in: lower case for an EVM address, as written otherwise. */
export const addressKey = (address: string): string =>
  EVM.test(address.trim()) ? address.trim().toLowerCase() : address.trim();
