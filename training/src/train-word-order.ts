// `npm run train:word-order`: trains the word-order networks (analysis/word-order.ts) on the training sentences and
// writes two files. src/insights/models/word-order-model.json holds one network per seed, trained on every
// sentence: the analyzer averages them. training/src/word-order-out-of-fold.json holds, for every training
// sentence, the networks' contribution from networks that did not see it (fold n % 5, as the aspect regression's
// validation folds): `npm run train:aspects` chooses its thresholds on the regression's and these together, and
// `npm run eval` reads them wherever a sentence must be scored by a model that did not train on it. Twelve networks
// (two seeds, five folds and all) take tens of minutes; they train in worker threads, one per core.
// Deterministic: same sentences and seeds, same bytes.
import { availableParallelism } from 'node:os';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { AspectId } from '../../src/reviews/schemas.js';
import {
  FILTERS,
  shippedNetwork,
  WIDTHS,
  WORD_ORDER_WEIGHT,
  wordOrderTokens,
  WordVectors,
  type Network,
  type WordOrderFile,
} from '../../src/insights/analysis/word-order.js';
import { networkLogits, trainNetwork, WORD_ORDER_TRAINING, type WordOrderExample } from './learn-word-order.js';
import { repoRoot, trainingSentences, type Labelled } from './labelled.js';
import { VALIDATION_FOLDS } from './learn-aspects.js';
import { OUT_OF_FOLD_FILE, sentencesHash } from './word-order-folds.js';

/** The seeds of the networks averaged (one network is noisier than two; docs/HISTORY.md). */
export const SEEDS = [1, 2];

export function wordOrderExamples(items: readonly Labelled[], vectors: WordVectors): WordOrderExample[] {
  return items.map((item) => {
    const aspects = new Set(item.aspects.map((a) => a.aspect));
    return {
      rows: vectors.rows(wordOrderTokens(item.text)),
      labels: Uint8Array.from(AspectId.options, (a) => (aspects.has(a) ? 1 : 0)),
    };
  });
}

/** One network to train: on every training sentence (fold undefined) or on all but fold `fold`. */
interface Job {
  seed: number;
  fold?: number;
}

const jobName = ({ seed, fold }: Job) =>
  `seed ${seed}, ${fold === undefined ? 'all sentences' : `without fold ${fold}`}`;

function trainJob(job: Job): Network {
  const vectors = new WordVectors();
  const examples = wordOrderExamples(trainingSentences(), vectors).filter(
    (_, n) => job.fold === undefined || n % VALIDATION_FOLDS !== job.fold,
  );
  return trainNetwork(examples, vectors, job.seed, (epoch, loss) => parentPort?.postMessage({ epoch, loss }));
}

/** Runs the jobs on `threads` worker threads, in order of the jobs as each thread frees. */
async function trainAll(jobs: readonly Job[], threads: number): Promise<Network[]> {
  const results: Network[] = [];
  let next = 0;
  const started = Date.now();
  const run = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await new Promise<Network>((done, fail) => {
        const worker = new Worker(new URL(import.meta.url), { workerData: jobs[i] });
        worker.on('message', (m: { epoch: number; loss: number } | { network: Network }) => {
          if ('network' in m) done(m.network);
          else
            process.stdout.write(
              `${jobName(jobs[i]!)}: epoch ${m.epoch}/${WORD_ORDER_TRAINING.epochs}, loss ${m.loss.toFixed(4)} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
            );
        });
        worker.on('error', fail);
        worker.on('exit', (code) => code !== 0 && fail(new Error(`${jobName(jobs[i]!)}: worker exited with ${code}`)));
      });
    }
  };
  await Promise.all(Array.from({ length: threads }, run));
  return results;
}

if (!isMainThread) {
  const network = trainJob(workerData as Job);
  parentPort!.postMessage({ network });
} else if (process.argv[1]?.endsWith('/training/src/train-word-order.js')) {
  const items = trainingSentences();
  const vectors = new WordVectors();
  const examples = wordOrderExamples(items, vectors);
  const jobs: Job[] = SEEDS.flatMap((seed): Job[] => [
    ...Array.from({ length: VALIDATION_FOLDS }, (_, fold) => ({ seed, fold })),
    { seed },
  ]);
  const networks = await trainAll(jobs, Math.max(1, Math.min(2, availableParallelism())));
  const contribution = new Float32Array(items.length * AspectId.options.length);
  jobs.forEach((job, j) => {
    if (job.fold === undefined) return;
    const held = examples.flatMap((e, n) => (n % VALIDATION_FOLDS === job.fold ? [n] : []));
    networkLogits(
      networks[j]!,
      held.map((n) => examples[n]!),
      vectors,
    ).forEach((z, k) => {
      z.forEach(
        (x, a) => (contribution[held[k]! * AspectId.options.length + a]! += (WORD_ORDER_WEIGHT / SEEDS.length) * x),
      );
    });
  });
  const settings = { ...WORD_ORDER_TRAINING, widths: [...WIDTHS], filters: FILTERS, seeds: SEEDS };
  const model: WordOrderFile = {
    about: `Trained by \`npm run train:word-order\` on the ${items.length} training sentences: one network per seed, averaged`,
    settings,
    networks: jobs.flatMap((job, j) => (job.fold === undefined ? [shippedNetwork(networks[j]!)] : [])),
  };
  const outOfFold = {
    about: `Each training sentence's word-order contribution (log-odds × ${WORD_ORDER_WEIGHT}, averaged over seeds ${SEEDS.join(', ')}) from the networks trained without its fold (n % ${VALIDATION_FOLDS}); float32, sentence by sentence, aspects in AspectId order`,
    settings,
    sentences: items.length,
    sentencesHash: sentencesHash(items),
    contribution: Buffer.from(contribution.buffer).toString('base64'),
  };
  writeFileSync(resolve(repoRoot, 'src/insights/models/word-order-model.json'), `${JSON.stringify(model)}\n`);
  writeFileSync(resolve(repoRoot, OUT_OF_FOLD_FILE), `${JSON.stringify(outOfFold)}\n`);
  process.stdout.write(`wrote src/insights/models/word-order-model.json and ${OUT_OF_FOLD_FILE}\n`);
}
