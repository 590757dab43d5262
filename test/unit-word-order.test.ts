// The word-order network: its tokens, its training (same sentences and seed, same bits; it learns), its cached reading
// (the same log-odds as the plain computation), the shipped files (trained with the settings the code names, on the
// sentences training/eval/ holds now) and its part in an explained decision.
import { describe, expect, it } from 'vitest';
import { AspectId } from '../src/reviews/schemas.js';
import { Analyzer } from '../src/insights/analysis/analyzer.js';
import {
  FILTERS,
  readNetwork,
  shippedNetwork,
  WIDTHS,
  WORD_ORDER_WEIGHT,
  WordOrderModel,
  wordOrderTokens,
  WordVectors,
} from '../src/insights/analysis/word-order.js';
import shippedWordOrder from '../src/insights/models/word-order-model.json' with { type: 'json' };
import { networkLogits, trainNetwork, WORD_ORDER_TRAINING } from '../training/src/learn-word-order.js';
import { trainingSentences } from '../training/src/labelled.js';
import { SEEDS, wordOrderExamples } from '../training/src/train-word-order.js';
import { outOfFoldWordOrder } from '../training/src/word-order-folds.js';

const vectors = new WordVectors();

describe('word-order tokens', () => {
  it('split as GloVe wrote its corpus: lowercased, punctuation apart, "n\'t" read as "not", clitics apart', () => {
    expect(wordOrderTokens("Didn't show up, CAN'T recommend.")).toEqual([
      'did',
      'not',
      'show',
      'up',
      ',',
      'can',
      'not',
      'recommend',
      '.',
    ]);
    expect(wordOrderTokens('The tech’s van won’t start')).toEqual(['the', 'tech', "'s", 'van', 'will', 'not', 'start']);
    expect(wordOrderTokens('A/C fixed in 2 hrs!')).toEqual(['a', '/', 'c', 'fixed', 'in', '2', 'hrs', '!']);
  });

  it('find most words of the training sentences in the shipped vectors', () => {
    const tokens = trainingSentences().flatMap((item) => wordOrderTokens(item.text));
    const known = tokens.filter((t) => vectors.index.has(t)).length;
    expect(known / tokens.length).toBeGreaterThan(0.9);
  });
});

describe('training a network', () => {
  const slice = wordOrderExamples(trainingSentences().slice(0, 240), vectors);

  it('gives the same weights, bit for bit, from the same sentences and seed, other weights from another seed, and lowers its loss', () => {
    const losses: number[] = [];
    const first = shippedNetwork(trainNetwork(slice, vectors, 7, (_, loss) => losses.push(loss)));
    const again = shippedNetwork(trainNetwork(slice, vectors, 7));
    const other = shippedNetwork(trainNetwork(slice, vectors, 8));
    expect(again).toEqual(first);
    expect(other.conv).not.toEqual(first.conv);
    expect(losses).toHaveLength(WORD_ORDER_TRAINING.epochs);
    expect(losses.at(-1)!).toBeLessThan(losses[0]! * 0.6);
  });

  it('is read by the cached model exactly as computed plainly, warm or cold', () => {
    const network = trainNetwork(slice.slice(0, 60), vectors, 3);
    const file = { about: 'test', settings: {}, networks: [shippedNetwork(network)] };
    const model = new WordOrderModel(file, vectors);
    // The shipped weights are float32: the plain computation reads the same rounded weights.
    const rounded = readNetwork(file.networks[0]!);
    const texts = ['He showed up two hours late and never called.', 'Great price, clean work.', 'Late.'];
    const plain = networkLogits(
      rounded,
      wordOrderExamples(
        texts.map((text, i) => ({ id: `t${i}`, text, aspects: [], sentiment: 'neutral' })),
        vectors,
      ),
      vectors,
    );
    for (const [i, text] of texts.entries()) {
      const cold = model.read(text).logits;
      const warm = model.read(text).logits;
      expect([...warm]).toEqual([...cold]);
      cold.forEach((z, a) => expect(z).toBeCloseTo(WORD_ORDER_WEIGHT * plain[i]![a]!, 4));
    }
  });
});

describe('the shipped networks', () => {
  it('were trained with the settings the code names, one network per seed', () => {
    expect(shippedWordOrder.settings).toEqual({
      ...WORD_ORDER_TRAINING,
      widths: [...WIDTHS],
      filters: FILTERS,
      seeds: SEEDS,
    });
    expect(shippedWordOrder.networks).toHaveLength(SEEDS.length);
  });

  it('left out-of-fold shares for exactly the training sentences training/eval/ holds now', () => {
    const shares = outOfFoldWordOrder();
    expect(shares.size).toBeGreaterThan(15_000);
    for (const share of [...shares.values()].slice(0, 50)) expect(share).toHaveLength(AspectId.options.length);
  });

  it("add their share to an explained decision, with the windows of the sentence's words that moved it", () => {
    const sentence = 'He showed up two hours late and the price was a rip-off.';
    const [explained] = new Analyzer(null).explain({ id: 'w', text: sentence }).sentences;
    const found = explained!.model!.filter((d) => d.found);
    expect(found.map((d) => d.aspect)).toEqual(expect.arrayContaining(['punctuality', 'price']));
    const tokens = wordOrderTokens(sentence).join(' ');
    for (const decision of found) {
      expect(typeof decision.wordOrder).toBe('number');
      expect(decision.windows!.length).toBeGreaterThan(0);
      for (const [window, share] of decision.windows!) {
        expect(tokens).toContain(window);
        expect(share).toBeGreaterThan(0);
      }
    }
  });
});
