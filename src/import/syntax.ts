// Syntax errors of the files an import reads, told without quoting them: the files hold customers' words and,
// in a job ledger, their contacts, and a problem's reason is printed and may be logged.

/**
 * V8's JSON syntax message without the piece of the file it quotes (`Unexpected token 'x', "{"email": …" is not valid
 * JSON`): the file holds customers' contacts, and a problem's reason is shown and logged. A position becomes a line
 * and column.
 */
export function jsonSyntaxReason(error: unknown, text: string): string {
  const unquoted = unquotedMessage(error);
  const at = /at position (\d+)/.exec(unquoted);
  if (!at) return `not valid JSON: ${unquoted}`;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `not valid JSON: ${unquoted.replace(/ in JSON at position \d+| at position \d+/, '')} (line ${line}, column ${column})`;
}

/** V8's JSON syntax message without what it quotes: it quotes the text as `, "…"` or `, ..."…"...`; all of it goes. */
function unquotedMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/,?\s*(?:\.\.\.)?".*"(?:\.\.\.)?/s, '').replace(/ is not valid JSON$/, '');
}

/** The same without its position, for a reader that names the place itself (the line of an NDJSON record). */
export function jsonSyntaxMessage(error: unknown): string {
  return `not valid JSON: ${unquotedMessage(error).replace(/ in JSON at position \d+| at position \d+/, '')}`;
}

/** csv-parse's message without the value it quotes (`…, value is "zq@example.test "`). */
export function csvSyntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/,?\s*value is ".*$/s, '').replace(/,?\s*got ".*?"/s, '');
}
