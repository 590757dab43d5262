// `reviews analyze --explain`: the decision path of one review as text an operator reads: each sentence's clauses
// with their lean and what the lexicon judged, each aspect's probability against its threshold with the features
// that weighed most and the word-order network's share with the windows behind it, and how each found aspect's
// polarity was decided.
import type { ReviewAnalysis, SentenceExplanation } from '../insights/analysis/analyzer.js';

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
const weighed = (reasons: readonly [string, number][]) => reasons.map(([f, w]) => `${f} ${signed(w)}`).join(', ');

export function explanationText(analysis: ReviewAnalysis, sentences: readonly SentenceExplanation[]): string {
  const lines = [`review ${analysis.id}: sentiment ${analysis.sentiment.label} ${signed(analysis.sentiment.score)}`];
  sentences.forEach((s, i) => {
    lines.push(`  sentence ${i + 1}: ${JSON.stringify(s.sentence)}`);
    for (const c of s.clauses) {
      const lexicon = c.lexicon.map((j) => `${j.aspect} ${signed(j.score)} [${j.cues.join(', ')}]`).join('; ');
      lines.push(
        `    clause ${JSON.stringify(c.text)}: lean ${signed(c.polarity)}${lexicon ? `; lexicon: ${lexicon}` : ''}`,
      );
    }
    if (s.model === null) {
      lines.push('    (no aspect model: the lexicon decides alone)');
    } else {
      lines.push(
        "    aspect model: probability against threshold (of the sentence, or of one part of it read alone); the features that weighed most for the decision; the word-order network's share of the log-odds and the word windows behind it",
      );
      for (const d of [...s.model].sort((a, b) => b.probability - a.probability)) {
        const verdict = d.found
          ? `found     ${d.probability.toFixed(3)} ≥ ${d.threshold}`
          : `not found ${d.probability.toFixed(3)} < ${d.threshold}`;
        const by = d.part === undefined ? '' : ` (read alone in ${JSON.stringify(s.parts[d.part])})`;
        const network =
          d.wordOrder === undefined
            ? ''
            : `; word order ${signed(d.wordOrder)}${d.windows?.length ? `: ${weighed(d.windows.map(([w, x]) => [`"${w}"`, x]))}` : ''}`;
        lines.push(`      ${d.aspect.padEnd(16)}${verdict}${by}  ${weighed(d.reasons)}${network}`);
      }
      for (const p of s.polarity) {
        lines.push(
          `    polarity of ${p.aspect}, judged in ${JSON.stringify(p.clause)}: ${p.positive >= 0.5 ? 'positive' : 'negative'} (p positive ${p.positive.toFixed(3)})  ${weighed(p.reasons)}`,
        );
      }
    }
    for (const a of s.aspects) lines.push(`    → ${a.aspect} ${a.polarity} ${signed(a.score)} [${a.cues.join(', ')}]`);
  });
  if (analysis.technicians.length) lines.push(`  technicians: ${analysis.technicians.join(', ')}`);
  if (analysis.services.length) lines.push(`  services: ${analysis.services.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
