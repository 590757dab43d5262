// `npm run train:aspects`: trains the learned aspect model on the whole development set and writes
// src/insights/analysis/aspect-model.json (the held-out test set is never read). Deterministic: same data, same bytes.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { trainAspectModel } from './learn-aspects.js';
import { ASPECT_THRESHOLD, examplesOf, loadLabelled, repoRoot } from './labelled.js';

const model = trainAspectModel(examplesOf(loadLabelled('eval/devset.jsonl')), ASPECT_THRESHOLD, 'Trained by `npm run train:aspects` on eval/devset.jsonl');
const json = `${JSON.stringify(model)}\n`;
for (const target of ['src/insights/analysis/aspect-model.json', 'dist/src/insights/analysis/aspect-model.json']) writeFileSync(resolve(repoRoot, target), json);
process.stdout.write(`wrote src/insights/analysis/aspect-model.json (${Object.values(model.weights).reduce((n, w) => n + Object.keys(w).length, 0)} weights, ${(json.length / 1024).toFixed(0)} KiB)\n`);
