// The service's /metrics as a test reads it: one scrape, and the value of a series in it.
import { rawRequest } from './wire.js';

/** One scrape of `{url}/metrics`: the value of a series (name and labels as printed), 0 when absent. */
export async function scrapeMetrics(url: string): Promise<(series: string) => number> {
  const lines = (await rawRequest(`${url}/metrics`)).body.toString('utf8').split('\n');
  return (series) => Number(lines.find((l) => l.startsWith(`${series} `))?.split(' ')[1] ?? 0);
}
