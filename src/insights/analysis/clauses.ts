// A sentence's words and clauses: tokens (numbers as "#", multi-word modifiers as one token, where punctuation
// breaks and what is in quotation marks) and the clauses it splits into at ";", dashes and contrast words.
import { foldedText } from './fold.js';
import { CONTRAST_MARKERS, MODIFIER_PHRASES } from './lexicon.js';

export interface Token {
  norm: string;
  start: number;
  end: number;
  /** Punctuation stands between this token and the one before: negation and opinions do not reach across it. */
  breakBefore: boolean;
  /** Written in quotation marks: scare quotes make a word mean its opposite ("fixed", "diagnostic fee"). */
  quoted: boolean;
}

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** Numbers match as "#", so one entry covers "3 hours late" and "three hours late". */
const NUMBER_WORDS = new Set([
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'fifteen',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'several',
  'few',
  'couple',
]);

/** Inside a short double-quoted span of the same sentence ("fixed", "tune-up special"): an odd number of quotes before, one soon after. */
function insideQuotes(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 40), at);
  const after = text.slice(at, at + 40);
  return (before.match(/["“”]/g)?.length ?? 0) % 2 === 1 && /["“”]/.test(after);
}

const MODIFIERS: [string[], string][] = Object.entries(MODIFIER_PHRASES)
  .map(([phrase, replacement]): [string[], string] => [phrase.split(' '), replacement])
  .sort((a, b) => b[0].length - a[0].length);

function tokenize(text: string, offset: number): Token[] {
  const tokens: Token[] = [];
  let previousEnd = 0;
  for (const m of text.matchAll(TOKEN)) {
    const word = foldedText(m[0]);
    const norm = /^\d+(st|nd|rd|th|am|pm|ish)?$/.test(word) || NUMBER_WORDS.has(word) ? '#' : word;
    const breakBefore = /[,.!?:;()]/.test(text.slice(previousEnd, m.index));
    tokens.push({
      norm,
      start: offset + m.index,
      end: offset + m.index + m[0].length,
      breakBefore,
      quoted: insideQuotes(text, m.index),
    });
    previousEnd = m.index + m[0].length;
  }
  // Multi-word modifiers become one token, so "kind of late" reads as a softened "late".
  for (let i = 0; i < tokens.length - 1; i++) {
    for (const [words, replacement] of MODIFIERS) {
      if (words[0] === tokens[i]!.norm && words.every((w, k) => tokens[i + k]?.norm === w)) {
        tokens.splice(i, words.length, {
          norm: replacement,
          start: tokens[i]!.start,
          end: tokens[i + words.length - 1]!.end,
          breakBefore: tokens[i]!.breakBefore,
          quoted: false,
        });
        break;
      }
    }
  }
  return tokens;
}

/** A clause and where it stands to a contrast word ("but"): it opens with one, or one follows it. */
export interface Clause {
  tokens: Token[];
  afterContrast: boolean;
  beforeContrast: boolean;
}

/** Splits a sentence into clauses at ";" and dashes, then before each contrast word. */
export function clauses(sentence: string, offset: number): Clause[] {
  const pieces: { text: string; start: number }[] = [];
  let start = 0;
  for (const m of sentence.matchAll(/;|\s[-–—]\s/g)) {
    pieces.push({ text: sentence.slice(start, m.index), start });
    start = m.index + m[0].length;
  }
  pieces.push({ text: sentence.slice(start), start });
  const out: Clause[] = [];
  for (const piece of pieces) {
    const tokens = tokenize(piece.text, offset + piece.start);
    let from = 0;
    for (let i = 1; i <= tokens.length; i++) {
      if (i === tokens.length || CONTRAST_MARKERS.has(tokens[i]!.norm)) {
        const part = tokens.slice(from, i);
        if (part.length > 0) {
          const first = part[0]!;
          out.push({
            tokens: part,
            afterContrast: CONTRAST_MARKERS.has(first.norm),
            beforeContrast: i < tokens.length,
          });
        }
        from = i;
      }
    }
  }
  return out;
}
