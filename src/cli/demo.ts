// `reviews demo`: writes the generated demo business as an import document; also seeds the demo database.
import { writeFile } from 'node:fs/promises';
import { DEMO_DEFAULTS, generateDemo, type DemoOptions } from '../demo/generate.js';
import type { Store } from '../store/types.js';
import { describeSummary } from './import.js';

export async function loadDemo(store: Store, options: DemoOptions): Promise<string> {
  const { business, reviews } = generateDemo(options);
  const summary = await store.applyImport({ business, reviews, replace: true });
  return describeSummary(summary, 0);
}

export async function writeDemo(options: DemoOptions, out: string | undefined): Promise<void> {
  const started = performance.now();
  const document = generateDemo(options);
  const json = `${JSON.stringify(document, null, out ? undefined : 2)}\n`;
  if (out) {
    await writeFile(out, json);
    process.stderr.write(
      `wrote ${out}: ${document.reviews.length} reviews of ${document.business.name} (seed ${options.seed ?? DEMO_DEFAULTS.seed}) in ${Math.round(performance.now() - started)} ms\n`,
    );
  } else {
    process.stdout.write(json);
  }
}
