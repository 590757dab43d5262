// `reviews analyze --explain` shows the decision path of a review: each clause's lean and lexicon judgements, every
// aspect's probability against its threshold with the features that weighed most, and how each found aspect's
// polarity was decided; `--id` picks one review.
import { afterAll, describe, expect, it } from 'vitest';
import { importedReview } from './support/reviews.js';
import { runCli, tempDir, writeJson } from './support/server.js';

const dir = tempDir();
afterAll(() => dir.remove());

/** A record as a file may give it: without technicians or services. */
function review(id: string, text: string) {
  const made = importedReview({ id, date: '2026-10-01', rating: 2, text, author: 'A. Customer' });
  const { technicians: _technicians, services: _services, ...record } = made;
  return record;
}
const file = writeJson(`${dir.path}/reviews.json`, {
  reviews: [
    review('r-1', 'Great price but he showed up two hours late.'),
    review('r-2', 'They left a mess in the garage.'),
  ],
});
const databaseUrl = `sqlite:${dir.path}/store.db`;

describe('analyze --explain', () => {
  it('prints the decision path of the review asked for, and only that one', async () => {
    const { code, stdout, stderr } = await runCli(['analyze', file, '--explain', '--id', 'r-1'], databaseUrl);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^review r-1: sentiment /);
    expect(stdout).not.toContain('r-2');
    expect(stdout).toContain('sentence 1: "Great price but he showed up two hours late."');
    // Each clause with its lean and what the lexicon judged in it.
    expect(stdout).toMatch(/clause "Great price": lean \+\d\.\d\d; lexicon: price \+/);
    expect(stdout).toMatch(/clause "but he showed up two hours late": lean −\d\.\d\d; lexicon: punctuality −/);
    // Every aspect's decision: eight lines, the found ones with the features that spoke for them, weights signed.
    const decisions = stdout.split('\n').filter((line) => /^ {6}\w+ +(found|not found) /.test(line));
    expect(decisions).toHaveLength(8);
    expect(decisions.find((l) => l.trim().startsWith('price'))).toMatch(/found +0\.\d{3} ≥ 0\.\d+ +\S+ \+\d\.\d\d/);
    expect(decisions.find((l) => l.trim().startsWith('cleanliness'))).toMatch(/not found +0\.\d{3} < 0\.\d+/);
    // The word-order network's share of a found aspect's log-odds, with word windows of the sentence behind it.
    expect(decisions.find((l) => l.trim().startsWith('punctuality'))).toMatch(
      /; word order [+−]\d\.\d\d(: "[a-z ]+" \+\d\.\d\d)?/,
    );
    expect(stdout).toMatch(
      /polarity of punctuality, judged in "but he showed up two hours late": negative \(p positive 0\.\d{3}\)/,
    );
    expect(stdout).toContain('→ price positive');
    expect(stdout).toContain('→ punctuality negative');
  });

  it('says so and exits 1 when no review has the id', async () => {
    const { code, stderr } = await runCli(['analyze', file, '--explain', '--id', 'nope'], databaseUrl);
    expect(code).toBe(1);
    expect(stderr).toContain('no review with id "nope"');
  });

  it('prints one JSON line per review without --explain, the found aspects with their cues', async () => {
    const { code, stdout } = await runCli(['analyze', file], databaseUrl);
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { id: string; aspects: { aspect: string; polarity: string; cues: string[] }[] },
      );
    expect(lines.map((l) => l.id)).toEqual(['r-1', 'r-2']);
    expect(lines[1]!.aspects).toEqual([expect.objectContaining({ aspect: 'cleanliness', polarity: 'negative' })]);
    expect(lines[1]!.aspects[0]!.cues.length).toBeGreaterThan(0);
  });
});
