// How a folded query lies on the words (runs of letters and digits) and separators (the runs between) of any text
// that contains it: the shape a text's words and separators must have, in a row, for the text to hold the query.

const SEPARATOR = /([^\p{L}\p{N}]+)/u;
/** Half of a surrogate pair, alone: it would split a letter of the text that the query's words cannot see. */
const LONE_SURROGATE = /\p{Cs}/u;

/** How a fragment of a query must sit in a word of the text. */
export type Fit = 'whole' | 'start' | 'end' | 'inside';

/** A word fragment of a query and where it must sit in a word of the text. */
export interface Fragment {
  text: string;
  fit: Fit;
}

export interface QueryShape {
  /** The query's separator characters before its first fragment: they end the separator run before that word. */
  lead: string;
  /** At least one; those of consecutive words of the text. */
  fragments: Fragment[];
  /** What separates fragment i from fragment i + 1: the whole separator run between their words. */
  between: string[];
  /** The query's separator characters after its last fragment: they start the separator run after that word. */
  trail: string;
}

/** Whether `query` has half of a surrogate pair alone: no words or separators tell where it lies. */
export function hasLoneSurrogate(query: string): boolean {
  return LONE_SURROGATE.test(query);
}

/**
 * The shape of `query` (folded), or undefined when words cannot tell where it lies: it has no letter or digit, or a
 * lone surrogate. A fragment followed by a separator ends a word; one preceded by one starts a word; a fragment
 * between two is a whole word; a lone fragment with neither sits anywhere inside one.
 */
export function shapeOf(query: string): QueryShape | undefined {
  if (hasLoneSurrogate(query)) return undefined;
  // Words at even indexes (the first and last may be empty), separators at odd ones.
  const pieces = query.split(SEPARATOR);
  const lead = pieces[0] === '' && pieces.length > 1 ? pieces[1]! : '';
  const trail = pieces[pieces.length - 1] === '' && pieces.length > 1 ? pieces[pieces.length - 2]! : '';
  const inner = pieces.slice(lead ? 2 : 0, trail ? -2 : undefined);
  if (inner.length === 0 || inner[0] === '') return undefined;
  const fragments: Fragment[] = [];
  const between: string[] = [];
  const last = inner.length - 1;
  for (let i = 0; i <= last; i += 2) {
    const startsWord = i > 0 || lead !== '';
    const endsWord = i < last || trail !== '';
    fragments.push({
      text: inner[i]!,
      fit: startsWord && endsWord ? 'whole' : startsWord ? 'start' : endsWord ? 'end' : 'inside',
    });
    if (i < last) between.push(inner[i + 1]!);
  }
  return { lead, fragments, between, trail };
}
