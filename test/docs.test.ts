// The docs stay true to the code: the configuration table names every variable the service reads with its default,
// and every relative link of the README and docs/ leads to a file (and a heading) that exists.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EnvSchema, loadConfig } from '../src/config.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The lines of a markdown text outside fenced code blocks. */
function prose(markdown: string): string[] {
  let fence: string | null = null;
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    const opener = /^\s*(```|~~~)/.exec(line)?.[1];
    if (opener && (fence === null || fence === opener)) {
      fence = fence === null ? opener : null;
      continue;
    }
    if (fence === null) lines.push(line);
  }
  return lines;
}

// ---- configuration -------------------------------------------------------------------------------------------------

interface SchemaVariable {
  name: string;
  /** The default the schema gives, as the environment would spell it; undefined when it gives none. */
  default: string | undefined;
}

/** A field's default as the environment would spell it, found through its wrappers (optional, pipe, transform). */
function defaultOf(field: unknown): string | undefined {
  const def = (field as { _zod: { def: { type: string; in?: unknown; innerType?: unknown; defaultValue?: unknown } } })
    ._zod.def;
  if (def.type === 'default') return String(def.defaultValue);
  if (def.type === 'pipe') return defaultOf(def.in);
  return def.innerType === undefined ? undefined : defaultOf(def.innerType);
}

function schemaVariables(): SchemaVariable[] {
  return Object.entries(EnvSchema.shape).map(([name, field]) => ({ name, default: defaultOf(field) }));
}

/** The names loadConfig asks the environment for: the schema's keys, seen from outside. */
function variablesRead(): string[] {
  const asked = new Set<string>();
  const env = new Proxy({} as NodeJS.ProcessEnv, {
    get(_target, key) {
      if (typeof key === 'string') asked.add(key);
      return undefined;
    },
  });
  loadConfig(env);
  return [...asked];
}

interface ConfigRow {
  name: string;
  defaultCell: string;
}

/** Rows of the first table under "## Configuration" in docs/operations.md. */
function configurationRows(): ConfigRow[] {
  const lines = prose(read('docs/operations.md'));
  const heading = lines.findIndex((l) => /^##\s+Configuration\s*$/.test(l));
  if (heading < 0) throw new Error('docs/operations.md has no "## Configuration" heading');
  const rows: ConfigRow[] = [];
  let inTable = false;
  for (const line of lines.slice(heading + 1)) {
    if (/^#{1,2}\s/.test(line)) break;
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells[0] === 'variable' || /^-+$/.test(cells[0] ?? '')) continue;
    const name = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[0] ?? '')?.[1];
    if (!name) throw new Error(`configuration row does not name one variable: ${line}`);
    rows.push({ name, defaultCell: cells[1] ?? '' });
  }
  return rows;
}

/** What a default cell states: a backticked value, "empty", or nothing checkable ("random per process", "unset"). */
function statedDefault(cell: string): string | undefined {
  if (/^empty$/i.test(cell)) return '';
  const code = /^`([^`]*)`$/.exec(cell)?.[1];
  return code;
}

describe('docs/operations.md configuration table', () => {
  const schema = schemaVariables();
  const rows = configurationRows();

  it('lists in EnvSchema the very names loadConfig asks the environment for', () => {
    expect(schema.map((v) => v.name).sort()).toEqual(variablesRead().sort());
    expect(schema.length).toBeGreaterThan(10);
  });

  it('has one row for every variable of EnvSchema, and names no other', () => {
    const documented = rows.map((r) => r.name);
    const names = schema.map((v) => v.name);
    expect(
      documented.filter((n) => !names.includes(n)),
      'rows naming no variable of EnvSchema',
    ).toEqual([]);
    expect(
      names.filter((n) => !documented.includes(n)),
      'variables of EnvSchema without a row',
    ).toEqual([]);
    expect(
      documented.filter((n, i) => documented.indexOf(n) !== i),
      'variables with two rows',
    ).toEqual([]);
  });

  it("states each variable's default as the schema gives it", () => {
    const wrong = rows.flatMap((row) => {
      const variable = schema.find((v) => v.name === row.name);
      const stated = statedDefault(row.defaultCell);
      if (!variable || variable.default === undefined || stated === undefined) return [];
      return stated === variable.default
        ? []
        : [`${row.name}: docs say ${row.defaultCell}, schema ${JSON.stringify(variable.default)}`];
    });
    expect(wrong).toEqual([]);
    // Every variable with a schema default states one the test can read.
    const unstated = rows.filter((row) => {
      const variable = schema.find((v) => v.name === row.name);
      return variable?.default !== undefined && statedDefault(row.defaultCell) === undefined;
    });
    expect(unstated.map((r) => `${r.name}: ${r.defaultCell}`)).toEqual([]);
  });
});

// ---- links ---------------------------------------------------------------------------------------------------------

function markdownFiles(): string[] {
  const files = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir))) {
      const path = join(dir, entry);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (path.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');
  return files;
}

/** GitHub's heading anchors: lower-case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}

interface Link {
  file: string;
  target: string;
}

function relativeLinks(file: string): Link[] {
  const links: Link[] = [];
  for (const line of prose(read(file))) {
    const withoutCode = line.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      links.push({ file, target });
    }
  }
  return links;
}

function brokenLinks(): string[] {
  return markdownFiles().flatMap((file) =>
    relativeLinks(file).flatMap(({ target }) => {
      const [pathPart = '', anchor] = target.split('#', 2);
      const path = pathPart === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURIComponent(pathPart));
      const where = `${file}: (${target})`;
      if (!existsSync(path)) return [`${where}: no file ${relative(ROOT, path)}`];
      if (anchor === undefined || anchor === '') return [];
      if (!path.endsWith('.md')) return [];
      return anchors(readFileSync(path, 'utf8')).has(anchor.toLowerCase()) ? [] : [`${where}: no heading #${anchor}`];
    }),
  );
}

describe('links of README.md and docs/', () => {
  it('finds links to check', () => {
    expect(markdownFiles().flatMap(relativeLinks).length).toBeGreaterThan(20);
  });

  it('makes GitHub-style anchors', () => {
    expect([...anchors("## The operator's commands\n### What `/readyz` says, and why\n## A\n## A\n")]).toEqual([
      'the-operators-commands',
      'what-readyz-says-and-why',
      'a',
      'a-1',
    ]);
  });

  it('resolves every relative link to a file, and every #anchor to a heading of it', () => {
    expect(brokenLinks()).toEqual([]);
  });
});
