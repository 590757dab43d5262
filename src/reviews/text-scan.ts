// Where the words of a text (runs of letters and digits, as /[\p{L}\p{N}]+/u finds them: by code point, a lone
// surrogate being neither) end and begin, read char by char: no match object or string per word, as a regular
// expression would make when the texts of 100,000 reviews are indexed.

const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** Whether each char below 128 is a letter or digit. */
const ASCII = Uint8Array.from({ length: 128 }, (_, code) => (WORD_CHAR.test(String.fromCharCode(code)) ? 1 : 0));

/** The same for the other chars of the Basic Multilingual Plane, learnt as they come: 1 yes, -1 no, 0 not yet seen. */
const BMP = new Int8Array(0x10000);

/** The length (1, or 2 for a surrogate pair) of the letter or digit at `i`, or 0 if there is none. */
function wordCharAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 128) return ASCII[code]!;
  if (code >= 0xd800 && code <= 0xdfff) {
    const low = text.charCodeAt(i + 1);
    // A low surrogate here is alone: a pair is read from its high one.
    return code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff && WORD_CHAR.test(text.slice(i, i + 2)) ? 2 : 0;
  }
  let known = BMP[code]!;
  if (known === 0) BMP[code] = known = WORD_CHAR.test(text[i]!) ? 1 : -1;
  return known > 0 ? 1 : 0;
}

/** The end of the word starting at `from`: the first index after it. */
export function wordEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const size = wordCharAt(text, i);
    if (size === 0) break;
    i += size;
  }
  return i;
}

/** The start of the first word at or after `from`, or the text's length if none. */
export function separatorEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && wordCharAt(text, i) === 0) i++;
  return i;
}
