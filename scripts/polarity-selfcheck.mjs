// Hand-run check of src/insights/analysis/polarity (after `npm run build` and `npx tsc -p training/tsconfig.json`): `node scripts/polarity-selfcheck.mjs`.
// Prints expectations that failed, the held-out UCI table, throughput and model size; exits 1 on any failure.
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL } from 'node:url';
import { textPolarity } from '../dist/src/insights/analysis/polarity/index.js';
import { evaluateUci, loadUci } from '../dist/training/src/polarity/uci.js';

const out = process.stdout;
let failures = 0;
const fail = (message) => {
  failures++;
  out.write(`FAIL ${message}\n`);
};

// 'weak': a statement of fact whose few learnt words lean either way, within the analyzer's neutral band (±0.05).
const expected = [
  ['We called on Tuesday.', 'weak'],
  ['The technician arrived at 9am.', 'weak'],
  ['', 'neutral'],
  ['Great service!', 'positive'],
  ['Not great.', 'negative'],
  ['The tech was not rude at all and very helpful.', 'positive'],
  ['Would not recommend.', 'negative'],
  ['Highly recommend them.', 'positive'],
  ["We won't be back.", 'negative'],
  ['Will definitely be back!', 'positive'],
  ['Nice guy, but the work was sloppy.', 'negative'],
  ['The price was high, but the work was excellent.', 'positive'],
  ["Don't waste your money.", 'negative'],
  ['I could not be happier.', 'positive'],
  ['I expected better.', 'negative'],
  ['Save your money and go elsewhere.', 'negative'],
  ['They showed up on time.', 'positive'],
  ['Not on time, again.', 'negative'],
  ['Excelent job, very profesional.', 'positive'],
  ['Totally dissapointed.', 'negative'],
  ['5 stars', 'positive'],
  ['0 stars if I could', 'negative'],
  ['The filter clogs easily.', 'negative'],
  ['Way too expensive.', 'negative'],
  ['The old unit sounded better than this one.', 'negative'],
  ['AMAZING work', 'positive'],
  ["Don't miss this company.", 'positive'],
];
for (const [text, label] of expected) {
  const got = textPolarity(text);
  if (label === 'weak' ? Math.abs(got.score) >= 0.05 : got.label !== label)
    fail(`${JSON.stringify(text)}: expected ${label}, got ${got.label} (${got.score})`);
  if (got.score < -1 || got.score > 1 || (got.label === 'neutral') !== (got.score === 0))
    fail(`${JSON.stringify(text)}: score ${got.score} out of contract`);
}

const texts = ['yelp', 'amazon', 'imdb'].flatMap((d) => loadUci(d)).map((s) => s.text);
const first = texts.map((t) => JSON.stringify(textPolarity(t))).join('\n');
const second = texts.map((t) => JSON.stringify(textPolarity(t))).join('\n');
if (first !== second) fail('two runs over the same sentences differ');

const rounds = 20;
const started = performance.now();
for (let r = 0; r < rounds; r++) for (const t of texts) textPolarity(t);
const perSecond = Math.round((rounds * texts.length) / ((performance.now() - started) / 1000));
if (perSecond < 20_000) fail(`throughput ${perSecond} sentences/s < 20000`);

out.write('dataset  sentences  accuracy  neutral  trained on\n');
for (const row of evaluateUci()) {
  out.write(
    `${row.dataset.padEnd(8)} ${String(row.sentences).padStart(9)}  ${row.accuracy.toFixed(4)}  ${String(row.neutral).padStart(7)}  ${row.trainedOn.join(' + ')}\n`,
  );
  if (row.trainedOn.includes(row.dataset)) fail(`${row.dataset} evaluated on its own training data`);
  if (row.dataset === 'yelp' && row.accuracy < 0.85) fail(`Yelp accuracy ${row.accuracy} < 0.85`);
}
const bytes = statSync(new URL('../src/insights/models/polarity-model.json', import.meta.url)).size;
out.write(`throughput ${perSecond} sentences/s; model.json ${Math.round(bytes / 1024)} KiB\n`);
if (bytes > 400 * 1024) fail(`model.json is ${bytes} bytes`);
out.write(failures === 0 ? 'polarity self-check: all passed\n' : `polarity self-check: ${failures} failed\n`);
process.exit(failures === 0 ? 0 : 1);
