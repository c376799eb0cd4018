import { v7 } from 'uuid';

/** Time-ordered UUID (v7): sorts by creation time, indexes well. */
export const newId = (): string => v7();
