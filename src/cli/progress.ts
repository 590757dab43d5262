// Progress lines on stderr for long work: throttled, one line per update (a terminal gets it redrawn in place).

/** Returns a callback reporting `label done/total`; silent for work under `minTotal` items. */
export function progressReporter(label: string, minTotal = 20000, everyMs = 1000): (done: number, total: number) => void {
  const tty = process.stderr.isTTY;
  let last = Date.now();
  return (done, total) => {
    if (total < minTotal) return;
    const now = Date.now();
    const finished = done >= total;
    if (!finished && now - last < everyMs) return;
    last = now;
    const line = `${label} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} (${Math.floor((done / total) * 100)}%)`;
    process.stderr.write(tty ? `\r${line}${finished ? '\n' : ''}` : `${line}\n`);
  };
}
