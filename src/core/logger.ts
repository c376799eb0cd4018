/** What background work needs of a logger: where to report a failure it recovers from. */
export type Logger = { error(obj: unknown, msg: string): void };
