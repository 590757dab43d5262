// Progress lines on stderr for long work: at every tenth of it and at most once a second between, one line per
// update (a terminal gets it redrawn in place).

export interface ProgressOptions {
  /** Silent for work under this many items (or bytes). */
  minTotal?: number;
  everyMs?: number;
  /** Counts are bytes, shown in MB. */
  bytes?: boolean;
}

/** Returns a callback reporting `label done/total (percent)`. */
export function progressReporter(label: string, options: ProgressOptions = {}): (done: number, total: number) => void {
  const { bytes = false, minTotal = bytes ? 10 * 2 ** 20 : 20000, everyMs = 1000 } = options;
  const tty = process.stderr.isTTY;
  const shown = (n: number) => (bytes ? (n / 2 ** 20).toFixed(1) : n.toLocaleString('en-US'));
  let last = Date.now();
  let lastTenth = 0;
  let ended = false;
  return (done, total) => {
    if (total < minTotal || ended) return;
    const now = Date.now();
    const finished = done >= total;
    const tenth = Math.floor((done / total) * 10);
    if (!finished && tenth === lastTenth && now - last < everyMs) return;
    last = now;
    lastTenth = tenth;
    ended = finished;
    const line = `${label} ${shown(done)}/${shown(total)}${bytes ? ' MB' : ''} (${Math.floor((done / total) * 100)}%)`;
    process.stderr.write(tty ? `\r${line}${finished ? '\n' : ''}` : `${line}\n`);
  };
}
