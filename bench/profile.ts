// Reads a V8 CPU profile (`node --cpu-prof`) and prints where the time went: self time and inclusive time by
// function, optionally from a given second on (to leave start-up out). Usage:
//   node dist/bench/profile.js <file.cpuprofile> [--from <seconds>] [--top <n>]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { from: { type: 'string', default: '0' }, top: { type: 'string', default: '40' } } });
const file = positionals[0];
if (!file) throw new Error('usage: profile <file.cpuprofile> [--from <seconds>] [--top <n>]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const fromMicros = Number(values.from) * 1e6;
const top = Number(values.top);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;

const selfById = new Map<number, number>();
let elapsed = 0;
let kept = 0;
profile.samples.forEach((id, i) => {
  elapsed += profile.timeDeltas[i] ?? 0;
  if (elapsed < fromMicros) return;
  kept += profile.timeDeltas[i] ?? 0;
  selfById.set(id, (selfById.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, micros] of selfById) {
  const key = name(byId.get(id)!);
  self.set(key, (self.get(key) ?? 0) + micros);
  // Each function once per stack, however often it recurses.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const k = name(byId.get(at)!);
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + micros);
  }
}

const print = (title: string, table: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [key, micros] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${((micros / kept) * 100).toFixed(1).padStart(5)}%  ${key}\n`);
};
process.stdout.write(`${(kept / 1e6).toFixed(1)} s of samples from second ${values.from} on (${(elapsed / 1e6).toFixed(1)} s in all)\n`);
print('self time', self);
print('inclusive time', inclusive);
