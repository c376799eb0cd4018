/**
 * The money vocabulary, defined once: the currencies Ponte moves (BRL over PIX, stablecoins on chains),
 * their scales (minor-unit digits), the chains stablecoins live on, and the conversion pairs priced.
 * Every list of currencies, stablecoins, chains or pairs elsewhere is derived from these.
 */

/** Digits after the point of each currency's minor unit: BRL in cents, stablecoins in millionths. */
export const CURRENCY_SCALE = { BRL: 2, USDC: 6, USDT: 6 } as const;
export type Currency = keyof typeof CURRENCY_SCALE;
export const CURRENCIES = Object.keys(CURRENCY_SCALE) as Currency[];

/** The fiat currency Ponte settles in over PIX. */
export const FIAT = 'BRL' satisfies Currency;
export type Fiat = typeof FIAT;

export const STABLECOINS = ['USDC', 'USDT'] as const satisfies readonly Currency[];
export type Stablecoin = (typeof STABLECOINS)[number];

export const BLOCKCHAINS = ['ETHEREUM', 'POLYGON', 'BASE', 'TRON'] as const;
export type Blockchain = (typeof BLOCKCHAINS)[number];

/** The pairs converted and priced: BRL into each stablecoin (on-ramp) and back (off-ramp). */
export const PAIRS = ['BRL/USDC', 'BRL/USDT', 'USDC/BRL', 'USDT/BRL'] as const;
export type Pair = (typeof PAIRS)[number];
