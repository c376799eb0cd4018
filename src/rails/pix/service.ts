/** The rail's surface for the modules that wire it: what they may record of its own. */

export { recordUnreadableItem } from './repo.ts';
