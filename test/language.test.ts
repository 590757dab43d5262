// The language of a review's text, detected offline: 200 review sentences written for the purpose, half English,
// half Spanish (not from any training set). A wrong language is worse than `und`, so none may be wrong.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectLanguage, loadLanguageDetector, UNDETERMINED } from '../src/reviews/language.js';

const sentences = JSON.parse(
  readFileSync(resolve(import.meta.dirname, 'fixtures/language/sentences.json'), 'utf8'),
) as { language: 'en' | 'es'; text: string }[];

beforeAll(loadLanguageDetector);

describe('detecting the language of review sentences', () => {
  it('tells English from Spanish in at least 94% of 200 sentences, and never names the wrong one', () => {
    const wrong: string[] = [];
    const right = { en: 0, es: 0 };
    for (const { language, text } of sentences) {
      const detected = detectLanguage(text);
      if (detected === language) right[language]++;
      else if (detected !== UNDETERMINED) wrong.push(`${JSON.stringify(text)} → ${detected}`);
    }
    expect(sentences.filter((s) => s.language === 'en')).toHaveLength(100);
    expect(wrong).toEqual([]);
    expect(right.en + right.es).toBeGreaterThanOrEqual(188);
    expect(right.en).toBeGreaterThanOrEqual(94);
    expect(right.es).toBeGreaterThanOrEqual(94);
  });

  it('says `und` for what is too short to tell', () => {
    for (const text of ['', 'ok', '👍', '10/10', 'A+', '$250']) expect(detectLanguage(text), text).toBe(UNDETERMINED);
  });

  it('names other languages too, as BCP 47 tags', () => {
    expect(detectLanguage('Le technicien est arrivé à l’heure et a réparé la climatisation rapidement.')).toBe('fr');
    expect(detectLanguage('Der Techniker kam pünktlich und hat die Klimaanlage schnell repariert.')).toBe('de');
  });
});
