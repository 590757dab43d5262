// `npm run train:vectors`: the real script, compiled on its own, run on a small generated vector file.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WordVectors, WORD_VECTOR_DIMENSIONS } from '../src/insights/analysis/word-order.js';

const repo = resolve(import.meta.dirname, '..');
// Compiled inside the repository (so the script finds the training sentences above it), apart from dist/.
const cache = join(repo, 'node_modules', '.cache');
let compiled: string;
let work: string;

function run(...args: string[]) {
  return spawnSync(process.execPath, [join(compiled, 'training', 'src', 'train-vectors.js'), ...args], {
    encoding: 'utf8',
  });
}

const vector = (seed: number) =>
  Array.from({ length: WORD_VECTOR_DIMENSIONS }, (_, d) => Math.round(Math.sin(seed * 7 + d) * 1e4) / 1e4);

beforeAll(() => {
  mkdirSync(cache, { recursive: true });
  compiled = mkdtempSync(join(cache, 'train-vectors-'));
  execFileSync(
    process.execPath,
    [
      join(repo, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      join(repo, 'training', 'tsconfig.json'),
      '--outDir',
      compiled,
    ],
    { cwd: repo },
  );
  work = mkdtempSync(join(tmpdir(), 'train-vectors-'));
}, 180_000);

afterAll(() => {
  rmSync(compiled, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('train:vectors', () => {
  it('writes word-vectors.json in the shipped format from a `word v1 v2 …` file', () => {
    const words = ['the', 'plumber', 'was', 'late', 'zzzunseen'];
    const source = join(work, 'vectors.vec');
    writeFileSync(
      source,
      `${words.length} ${WORD_VECTOR_DIMENSIONS}\n${words.map((w, i) => `${w} ${vector(i + 1).join(' ')}`).join('\n')}\n`,
    );
    const out = join(work, 'word-vectors.json');
    const result = run(source, '--out', out);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^5 words \(\d+ of the \d+ training words\); wrote /);

    const file = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
    const shipped = JSON.parse(readFileSync(join(repo, 'src/insights/models/word-vectors.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(file)).toEqual(Object.keys(shipped));
    expect(file.dimensions).toBe(WORD_VECTOR_DIMENSIONS);
    expect(file.words).toBe(words.join('\n'));
    expect(file.about).toMatch(/vectors\.vec/);
    expect(Buffer.from(file.scales as string, 'base64').length).toBe(words.length * 4);
    expect(Buffer.from(file.vectors as string, 'base64').length).toBe(words.length * WORD_VECTOR_DIMENSIONS);

    // The analyzer reads it back to the vectors given, within a byte's rounding.
    const read = new WordVectors(file as { words: string; scales: string; vectors: string });
    const plumber = read.read(read.index.get('plumber')!, new Float64Array(WORD_VECTOR_DIMENSIONS));
    const given = vector(2);
    const step = Math.max(...given.map(Math.abs)) / 127;
    given.forEach((x, d) => expect(Math.abs(plumber[d]! - x)).toBeLessThanOrEqual(step / 2 + 1e-6));
  });

  it('says so when the file is missing, or not word vectors', () => {
    const missing = run(join(work, 'nowhere.txt'), '--out', join(work, 'x.json'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/nowhere\.txt: no such file/);

    const bad = join(work, 'bad.txt');
    writeFileSync(bad, 'the 0.1 0.2 0.3\n');
    const short = run(bad, '--out', join(work, 'x.json'));
    expect(short.status).toBe(1);
    expect(short.stderr).toMatch(/bad\.txt:1: expected a word and 100 numbers, found 3/);

    const usage = run();
    expect(usage.status).toBe(1);
    expect(usage.stderr).toMatch(/usage: npm run train:vectors/);
  });
});
