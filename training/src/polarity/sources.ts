// Builds the base lexicon from the packaged general lexicons (training time only): VADER (vader-sentiment), AFINN-165
// as the `sentiment` package ships it, and the word scores inside wink-eng-lite-web-model. VADER's scale, −4..4.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';

const require = createRequire(import.meta.url);
const packageDir = (name: string): string => dirname(require.resolve(`${name}/package.json`));

// One-word entries our tokenizer can produce: words (with inner apostrophes or hyphens) and the usual emoticons.
const WORD = /^(?:[a-z]+(?:['-][a-z]+)*|[:;=]-?[()dp/])$/;
// wink's scores run about half as wide as VADER's; doubling them measured best on the held-out files.
const WINK_SCALE = 2;

const tenth = (x: number): number => Math.round(x * 10) / 10;

function vader(): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readFileSync(join(packageDir('vader-sentiment'), 'vader_lexicon.txt'), 'utf8').split('\n')) {
    const [token, mean] = line.split('\t');
    const word = token?.toLowerCase();
    if (word !== undefined && WORD.test(word) && mean !== undefined && Number.isFinite(Number(mean)))
      out.set(word, Number(mean));
  }
  return out;
}

function afinn(): Map<string, number> {
  const labels: unknown = JSON.parse(
    readFileSync(join(packageDir('sentiment'), 'languages', 'en', 'labels.json'), 'utf8'),
  );
  const out = new Map<string, number>();
  for (const [word, value] of Object.entries(labels as Record<string, unknown>)) {
    if (WORD.test(word) && typeof value === 'number') out.set(word, value);
  }
  return out;
}

/** Every word of wink's vocabulary that its sentiment model scores, read one word at a time. */
function wink(): Map<string, number> {
  const core: unknown = JSON.parse(
    readFileSync(
      join(packageDir('wink-eng-lite-web-model'), 'dist', 'languages', 'cur', 'models', 'eng-core-web-model.json'),
      'utf8',
    ),
  );
  const list = (core as { features?: { lexeme?: { list?: unknown } } }).features?.lexeme?.list;
  if (!Array.isArray(list)) throw new Error('wink-eng-lite-web-model: no lexeme list where expected');
  const nlp = winkNLP(model, ['sentiment']);
  const out = new Map<string, number>();
  for (const word of list) {
    if (typeof word !== 'string' || !WORD.test(word)) continue;
    const s = nlp.readDoc(word).out(nlp.its.sentiment) as number;
    if (s !== 0) out.set(word, s * WINK_SCALE);
  }
  return out;
}

/** Later sources win: VADER's human ratings over AFINN's, AFINN's over wink's broader but noisier list. */
export function buildBaseLexicon(): Map<string, number> {
  const merged = new Map<string, number>();
  for (const source of [wink(), afinn(), vader()]) for (const [w, v] of source) merged.set(w, v);
  const out = new Map<string, number>();
  for (const [w, v] of merged) if (tenth(v) !== 0) out.set(w, tenth(v));
  return out;
}

export const SOURCES =
  'lexicon: VADER (vader-sentiment, Hutto & Gilbert 2014; Apache-2.0 port of the MIT original), AFINN-165 (from the sentiment package, MIT), wink-eng-lite-web-model sentiment scores ×2 (MIT); rounded to 0.1, VADER > AFINN > wink';
