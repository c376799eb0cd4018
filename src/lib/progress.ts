/**
 * Progress of a long command, as operators expect it: on a terminal one line redrawn in place (a bar, the
 * count and the share done); in a log (output not a terminal) a plain line at each tenth of the way, so
 * that a million rows write ten lines, not a million.
 */
export type ProgressOutput = Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean };

export type Progress = {
  /** `done` of `total` units so far (`total` may grow as the work learns its size). */
  update(done: number, total: number): void;
  /** Ends the line with a closing summary. */
  finish(summary: string): void;
};

const BAR = 24;
const count = new Intl.NumberFormat('en-US');

export function progressLine(out: ProgressOutput, label: string, unit: string): Progress {
  const started = performance.now();
  let lastTenth = -1;
  let drawn = false;
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  return {
    update(done, total) {
      const share = total > 0 ? Math.min(1, done / total) : 1;
      const of = `${count.format(done)}/${count.format(total)} ${unit}`;
      if (out.isTTY) {
        const filled = Math.round(share * BAR);
        const bar = `${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}`;
        out.write(`\r\x1b[K${label} [${bar}] ${Math.floor(share * 100)}% ${of} (${elapsed()})`);
        drawn = true;
        return;
      }
      const tenth = Math.floor(share * 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      out.write(`${label}: ${of} (${tenth * 10}%, ${elapsed()})\n`);
    },
    finish(summary) {
      out.write(`${out.isTTY && drawn ? '\r\x1b[K' : ''}${label}: ${summary} in ${elapsed()}\n`);
    },
  };
}
