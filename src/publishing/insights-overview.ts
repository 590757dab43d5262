// The insights document without its lists of review ids: what the home page and llms.txt show (figures, quotes, FAQ,
// summary). At 100,000 reviews the lists are 6 MB of the 7.8 MB document, and parsing them took 200 ms of the server's
// thread at start, when the home page is made; the overview is read from the document's bytes without them.
import type { InsightsDocument } from '../reviews/insights-document.js';
import { endOfString } from '../reviews/encoded-reviews.js';

/** The keys whose values are review ids: a list of them, or an object of lists (an aspect's, by polarity). */
const ID_KEYS = ['"reviewIds":', '"examples":'].map((key) => Buffer.from(key));

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Not the compact JSON the insights are stored as: the overview is then parsed from the whole document. */
class Unexpected extends Error {}

/**
 * The document in `json` (compact, as stored) with every list of review ids empty. Anything unexpected in the bytes
 * (spaces, another shape) makes it parse the whole document instead: the answer is the same, only slower.
 */
export function overviewOf(json: Buffer): InsightsDocument {
  try {
    return JSON.parse(withoutIdLists(json)) as InsightsDocument;
  } catch (error) {
    if (!(error instanceof Unexpected)) throw error;
    const document = JSON.parse(json.toString('utf8')) as InsightsDocument;
    return emptied(document) as InsightsDocument;
  }
}

/** The same document with the id lists emptied, for a document parsed whole. */
function emptied(value: unknown, key?: string): unknown {
  if (key === 'reviewIds' || key === 'examples') {
    if (Array.isArray(value)) return [];
    if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).map((k) => [k, []]));
  }
  if (Array.isArray(value)) return value.map((item) => emptied(item));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, emptied(v, k)]));
  return value;
}

/**
 * The text of `json` without the ids inside each list of review ids; it throws `Unexpected` for JSON other than the
 * compact one of a stored document.
 */
export function withoutIdLists(json: Buffer): string {
  const cuts: [number, number][] = [];
  for (const key of ID_KEYS) {
    // A key cannot occur inside a string: there, the quote after the name would be escaped.
    for (let at = json.indexOf(key); at >= 0; at = json.indexOf(key, at + key.length)) {
      const value = at + key.length;
      if (json[value] === OPEN_LIST) cuts.push(listContents(json, value));
      else if (json[value] === OPEN_OBJECT) cuts.push(...objectOfLists(json, value));
      else throw new Unexpected();
    }
  }
  cuts.sort((a, b) => a[0] - b[0]);
  let text = '';
  let from = 0;
  for (const [start, end] of cuts) {
    text += json.toString('utf8', from, start);
    from = end;
  }
  return text + json.toString('utf8', from);
}

/** [the first byte inside, the closing bracket] of the list of strings opening at `open`. */
function listContents(json: Buffer, open: number): [number, number] {
  let at = open + 1;
  while (json[at] !== CLOSE_LIST) {
    if (json[at] !== QUOTE) throw new Unexpected();
    at = endOfString(json, at) + 1;
    if (json[at] === COMMA) at++;
    else if (json[at] !== CLOSE_LIST) throw new Unexpected();
  }
  return [open + 1, at];
}

/** The contents of each list of the object of lists of strings opening at `open`. */
function objectOfLists(json: Buffer, open: number): [number, number][] {
  const lists: [number, number][] = [];
  let at = open + 1;
  while (json[at] !== CLOSE_OBJECT) {
    if (json[at] !== QUOTE) throw new Unexpected();
    at = endOfString(json, at) + 1;
    if (json[at] !== COLON || json[at + 1] !== OPEN_LIST) throw new Unexpected();
    const list = listContents(json, at + 1);
    lists.push(list);
    at = list[1] + 1;
    if (json[at] === COMMA) at++;
    else if (json[at] !== CLOSE_OBJECT) throw new Unexpected();
  }
  return lists;
}
