// The word-order networks' out-of-fold contributions (written by `npm run train:word-order`): for each training
// sentence, what networks that never saw it add to each aspect's log-odds. Choosing thresholds and scoring a
// sentence in evaluation read these, never the shipped networks, which trained on every sentence.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AspectId } from '../../src/reviews/schemas.js';
import { sentenceTexts, type WordOrderReader } from '../../src/insights/analysis/analyzer.js';
import { repoRoot, trainingSentences, type Labelled } from './labelled.js';

export const OUT_OF_FOLD_FILE = 'training/src/word-order-out-of-fold.json';

/** The hash that ties the out-of-fold file to the training sentences it was computed on, in their order. */
export const sentencesHash = (items: readonly Labelled[]) =>
  createHash('sha256')
    .update(items.map((i) => i.text).join('\n'))
    .digest('hex');

/** A sentence's key: its text without surrounding space (the analyzer's sentences come trimmed). */
const key = (text: string) => text.trim();

/**
 * Training sentence text → its out-of-fold contribution per aspect (AspectId order). Fails, saying what to run,
 * when the training sentences are no longer those the file was computed on.
 */
export function outOfFoldWordOrder(): Map<string, Float64Array> {
  const file = JSON.parse(readFileSync(resolve(repoRoot, OUT_OF_FOLD_FILE), 'utf8')) as {
    sentencesHash: string;
    contribution: string;
  };
  const items = trainingSentences();
  if (file.sentencesHash !== sentencesHash(items)) {
    throw new Error(
      `${OUT_OF_FOLD_FILE} was computed on other training sentences than training/eval/ holds now: run \`npm run train:word-order\` first`,
    );
  }
  const bytes = Buffer.from(file.contribution, 'base64');
  const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  const aspects = AspectId.options.length;
  return new Map(
    items.map((item, n) => [key(item.text), Float64Array.from(all.subarray(n * aspects, (n + 1) * aspects))]),
  );
}

/**
 * The analyzer's word-order reader in evaluation: a training sentence reads its out-of-fold contribution. A training
 * text the analyzer reads as several sentences (281 of the 15,624) was read whole by the networks: each of its
 * sentences reads the whole text's share, an approximation, since the shipped analyzer gives each its own. Any
 * other sentence reads none, and is counted.
 */
export class OutOfFoldReader implements WordOrderReader {
  missed = 0;
  private readonly none = new Float64Array(AspectId.options.length);
  private readonly byPiece = new Map<string, Float64Array>();
  constructor(private readonly contributions: ReadonlyMap<string, Float64Array> = outOfFoldWordOrder()) {
    for (const [text, share] of contributions) {
      const pieces = sentenceTexts(text);
      if (pieces.length > 1) for (const piece of pieces) this.byPiece.set(key(piece), share);
    }
  }
  read(sentence: string) {
    const logits = this.contributions.get(key(sentence)) ?? this.byPiece.get(key(sentence));
    if (!logits) this.missed++;
    return { logits: logits ?? this.none, windows: AspectId.options.map(() => []) };
  }
}
