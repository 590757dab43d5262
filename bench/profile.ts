// Reads a V8 CPU profile (`node --cpu-prof`) and prints where the time went: self time and inclusive time by
// function, optionally from a given second on (to leave start-up out); or, with --timeline, where each slice of time
// went (the outermost frame of the service's own code in each sample), to read a start-up. Usage:
//   node dist/bench/profile.js <file.cpuprofile> [--from <seconds>] [--top <n>] [--timeline <ms>]
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

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: 'string', default: '0' },
    top: { type: 'string', default: '40' },
    timeline: { type: 'string' },
  },
});
const file = positionals[0];
if (!file) throw new Error('usage: profile <file.cpuprofile> [--from <seconds>] [--top <n>] [--timeline <ms>]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const fromMicros = Number(values.from) * 1e6;
const top = Number(values.top);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;

/** The sample's outermost frame in the service's own compiled code, else its leaf (the runtime: GC, idle, loading). */
function owner(id: number): string {
  let found: string | undefined;
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const node = byId.get(at)!;
    if (node.callFrame.url.includes('/dist/src/')) found = name(node);
  }
  return found ?? name(byId.get(id)!);
}

if (values.timeline !== undefined) {
  const step = Number(values.timeline) * 1000;
  const slices: Map<string, number>[] = [];
  let at = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    const slice = (slices[Math.floor(at / step)] ??= new Map());
    const key = owner(id);
    slice.set(key, (slice.get(key) ?? 0) + delta);
  });
  slices.forEach((slice, i) => {
    const total = [...slice.values()].reduce((a, b) => a + b, 0);
    const parts = [...slice]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([key, micros]) => `${Math.round((micros / total) * 100)}% ${key}`);
    process.stdout.write(`${((i * step) / 1e6).toFixed(2).padStart(6)} s  ${parts.join(' | ')}\n`);
  });
  process.exit(0);
}

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
  for (const [key, micros] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${((micros / kept) * 100).toFixed(1).padStart(5)}%  ${key}\n`);
};
process.stdout.write(
  `${(kept / 1e6).toFixed(1)} s of samples from second ${values.from} on (${(elapsed / 1e6).toFixed(1)} s in all)\n`,
);
print('self time', self);
print('inclusive time', inclusive);
