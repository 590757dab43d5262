// Splits English customer text into lowercased word, number, emoticon and punctuation tokens; pure and allocation-light.

export interface Token {
  /** Lowercased form; contractions ending in n't become the stem followed by a separate "not". */
  readonly w: string;
  /** Written in capitals (two or more letters), which customers use for emphasis. */
  readonly caps: boolean;
}

// ASCII letters only, lowercased and not accent-folded (unlike the analyzer's fold.ts): the shipped model.json was
// learned from exactly these tokens, so folding here would need retraining to stay calibrated.
// Emoticons first so ":)" is not read as punctuation (but "Note:Price" holds none); hyphenated words stay whole so "top-notch" can be looked up;
// scores such as "10/10" stay one token.
const TOKEN =
  /(?<![A-Za-z0-9])[:;=]-?[()dDpP/](?![A-Za-z0-9])|[A-Za-z]+(?:['’-][A-Za-z]+)*|\d+(?:\.\d+)?(?:\/\d+)?|[!?.,;:]/g;

// Stems whose n't form is spelled differently ("won't" → "will not", "can't" → "can not").
const NT_STEMS: Readonly<Record<string, string>> = { wo: 'will', ca: 'can', sha: 'shall', ai: 'is' };

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const raw = match[0];
    const lower = raw.toLowerCase().replace(/’/g, "'");
    const caps = raw.length > 1 && /[A-Z]/.test(raw) && raw === raw.toUpperCase();
    if (lower.endsWith("n't") && lower.length > 3) {
      const stem = lower.slice(0, -3);
      out.push({ w: NT_STEMS[stem] ?? stem, caps }, { w: 'not', caps });
    } else {
      out.push({ w: lower, caps });
    }
  }
  return out;
}
