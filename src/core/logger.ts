/**
 * What background work needs of a logger: where to report a failure it recovers from, and (where the
 * logger has it) a quiet line on the progress of long work.
 */
export type Logger = { error(obj: unknown, msg: string): void; info?(obj: unknown, msg: string): void };
