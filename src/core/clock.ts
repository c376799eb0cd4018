/** The source of "now" for services; tests pass a fixed or advancing clock. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
