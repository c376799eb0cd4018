/**
 * The money vocabulary, defined once: the currencies Ponte moves (BRL over PIX, US dollars over ACH and
 * wire, stablecoins on chains),
 * their scales (minor-unit digits), the chains stablecoins live on, and the conversion pairs priced.
 * Every list of currencies, stablecoins, chains or pairs elsewhere is derived from these.
 */

/** Digits after the point of each currency's minor unit: BRL and USD in cents, stablecoins in millionths. */
export const CURRENCY_SCALE = { BRL: 2, USD: 2, USDC: 6, USDT: 6 } as const;
export type Currency = keyof typeof CURRENCY_SCALE;
export const CURRENCIES = Object.keys(CURRENCY_SCALE) as Currency[];

/** The fiat currency Ponte settles in over PIX. */
export const FIAT = 'BRL' satisfies Currency;
export type Fiat = typeof FIAT;

/** The fiat currencies of Ponte's corridors: BRL over PIX, USD over ACH and wire (a US bank). */
export const FIATS = ['BRL', 'USD'] as const satisfies readonly Currency[];
export type FiatCurrency = (typeof FIATS)[number];
export const isFiat = (currency: Currency): currency is FiatCurrency =>
  (FIATS as readonly string[]).includes(currency);

export const STABLECOINS = ['USDC', 'USDT'] as const satisfies readonly Currency[];
export type Stablecoin = (typeof STABLECOINS)[number];

export const BLOCKCHAINS = ['ETHEREUM', 'POLYGON', 'BASE', 'TRON'] as const;
export type Blockchain = (typeof BLOCKCHAINS)[number];

/**
 * The pairs converted and priced: each fiat into each stablecoin (on-ramp) and back (off-ramp). A pair
 * quotes target units per source unit (BRL/USDC: USDC per BRL; USD/USDC: USDC per USD).
 */
export const PAIRS = [
  'BRL/USDC',
  'BRL/USDT',
  'USDC/BRL',
  'USDT/BRL',
  'USD/USDC',
  'USD/USDT',
  'USDC/USD',
  'USDT/USD',
] as const;
export type Pair = (typeof PAIRS)[number];
