// General (not home-services) polarity of a clause or sentence: the analyzer's fallback.
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

export type Polarity = 'positive' | 'negative' | 'neutral';
export interface PolarityResult {
  label: Polarity;
  score: number;
}

const nlp = winkNLP(model, ['sbd', 'negation', 'sentiment']);

export function textPolarity(text: string): PolarityResult {
  const score = nlp.readDoc(text).out(nlp.its.sentiment) as number;
  return { label: score > 0.05 ? 'positive' : score < -0.05 ? 'negative' : 'neutral', score };
}
