// A typed client generated from the live description (openapi-typescript types, openapi-fetch calls) type-checks, calls every GET operation and gets what the types promise; a wrong field fails the type check.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { fetchDescription, run } from './support/openapi.js';
import { startServer, tempDir, type RunningServer } from './support/server.js';

const ROOT = resolve(import.meta.dirname, '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const demo = generateDemo({ seed: 42, reviews: 200 });
const technician = demo.business.technicians[0]?.name.split(' ')[0] ?? '';
const service = demo.business.services[0]?.id ?? '';

/** The client program: every GET operation, a HEAD, a conditional GET, an MCP initialize; prints what it saw as JSON. */
const CLIENT = `// A typed client of the reviews service, its types generated from /.well-known/openapi.json.
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const baseUrl = process.argv[2];
if (!baseUrl) throw new Error('usage: client.js <base URL>');
const client = createClient<paths>({ baseUrl });

function data<T>(result: { data?: T; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(\`\${what}: HTTP \${result.response.status}\`);
  return result.data;
}

const dataset = data(await client.GET('/reviews.json'), 'reviews');
const insights = data(await client.GET('/insights.json'), 'insights');
const feed = data(await client.GET('/api/feed.json'), 'JSON feed');
const atom = data(await client.GET('/feed.xml', { parseAs: 'text' }), 'Atom feed');
const fiveStars = await client.GET('/api/reviews/search', { params: { query: { rating: 5, limit: 3 } } });
const search = data(fiveStars, 'search');
const filtered = data(
  await client.GET('/api/reviews/search', {
    params: { query: { min_rating: 3.5, since: '2024-01-01', until: '2026-12-31', mentions_technician: ${JSON.stringify(technician)}, limit: 5 } },
  }),
  'filtered search',
);
const byService = data(await client.GET('/api/reviews/search', { params: { query: { mentions_service: ${JSON.stringify(service)}, query: 'the' } } }), 'service search');
const since = data(await client.GET('/api/reviews/since/{date}', { params: { path: { date: '2026-01-01' } } }), 'since');
const description = data(await client.GET('/.well-known/openapi.json'), 'OpenAPI');

const invalid = await client.GET('/api/reviews/search', { params: { query: { rating: 9 } } });
const mcpStream = await client.GET('/mcp');
const hubPage = await client.GET('/api/websub/hub', { parseAs: 'text' });
const head = await client.HEAD('/reviews.json');
const revalidated = await client.GET('/api/reviews/search', {
  params: { query: { rating: 5, limit: 3 }, header: { 'If-None-Match': fiveStars.response.headers.get('etag') ?? '' } },
});
const initialize = await client.POST('/mcp', {
  headers: { Accept: 'application/json, text/event-stream' },
  body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'typed-client', version: '1.0.0' } } },
});

const rpcError = mcpStream.error && typeof mcpStream.error.error === 'object' ? mcpStream.error.error : null;
const issues = invalid.error && 'issues' in invalid.error ? (invalid.error.issues ?? []) : [];

process.stdout.write(JSON.stringify({
  reviews: { business: dataset.business?.name ?? null, reviewCount: dataset.aggregateRating.reviewCount, listed: dataset.reviews.length, bestRating: dataset.aggregateRating.bestRating },
  insights: { status: insights.status, reviewCount: insights.reviewCount, aspects: insights.aspects.map((a) => a.id) },
  feed: { version: feed.version, items: feed.items.length, ratings: feed.items.map((i) => i._review.rating) },
  atom: atom.startsWith('<?xml'),
  search: { count: search.count, total: search.total, ratings: search.reviews.map((r) => r.rating) },
  filtered: { count: filtered.count, ratings: filtered.reviews.map((r) => r.rating), technicians: filtered.reviews.map((r) => r.technicians) },
  byService: { count: byService.count, services: byService.reviews.map((r) => r.services) },
  since: { since: since.since, count: since.count, dates: since.reviews.map((r) => r.date) },
  openapi: { version: description.openapi, title: description.info.title },
  invalid: { status: invalid.response.status, paths: issues.map((i) => i.path) },
  mcpStream: { status: mcpStream.response.status, code: rpcError?.code ?? null },
  hubPage: hubPage.response.status,
  head: { status: head.response.status, etag: head.response.headers.get('etag') },
  revalidated: revalidated.response.status,
  initialize: { status: initialize.response.status, session: initialize.response.headers.get('mcp-session-id') !== null },
}));
`;

/** A program that gets the API wrong: tsc must refuse it. */
const WRONG = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' });
const { data } = await client.GET('/reviews.json');
export const total: number | undefined = data?.aggregateRating.reviewTotal;
await client.GET('/api/reviews/search', { params: { query: { ratings: 5 } } });
await client.GET('/api/reviews/since/{date}', { params: { path: { day: '2026-01-01' } } });
`;

const COMPILER_OPTIONS = {
  target: 'ES2023',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2023'],
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  // The generated schema.ts is a .ts file, so it is checked; only the installed packages' declarations are skipped.
  skipLibCheck: true,
};

const dir = tempDir('reviews-client-');
let server: RunningServer;

function writeProject(name: string, source: string, emit: boolean): string {
  writeFileSync(join(dir.path, `${name}.ts`), source);
  const config = join(dir.path, `tsconfig.${name}.json`);
  const compilerOptions = emit
    ? { ...COMPILER_OPTIONS, outDir: 'out', rootDir: '.' }
    : { ...COMPILER_OPTIONS, noEmit: true };
  writeFileSync(config, JSON.stringify({ compilerOptions, files: [`${name}.ts`] }, null, 2));
  return config;
}

beforeAll(async () => {
  server = await startServer(join(dir.path, 'client.db'));
  await server.store.applyImport({ business: demo.business, reviews: demo.reviews, replace: true });
  await server.app.publisher.refresh();
  await server.app.publisher.insightsReady();
  const doc = await fetchDescription(`${server.url}/.well-known/openapi.json`);
  const file = join(dir.path, 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  // From the local copy of the live description: it has no external $ref, so nothing is fetched.
  const types = astToString(await openapiTS(pathToFileURL(file), { silent: true }));
  writeFileSync(join(dir.path, 'schema.ts'), types);
  // The program resolves openapi-fetch, typescript's lib and @types/node from this project's install; it runs as ESM.
  symlinkSync(join(ROOT, 'node_modules'), join(dir.path, 'node_modules'), 'dir');
  writeFileSync(join(dir.path, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  mkdirSync(join(dir.path, 'out'));
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

describe('a client generated with openapi-typescript and called with openapi-fetch', () => {
  it('type-checks strictly, then calls every GET operation and gets the typed fields it expects', async () => {
    const compiled = await run(process.execPath, [TSC, '-p', writeProject('client', CLIENT, true)], { cwd: dir.path });
    expect(compiled.code, compiled.stdout + compiled.stderr).toBe(0);
    const ran = await run(process.execPath, [join(dir.path, 'out', 'client.js'), server.url], { cwd: dir.path });
    expect(ran.code, ran.stderr).toBe(0);
    const seen = JSON.parse(ran.stdout) as Record<string, Record<string, unknown>>;
    const verified = demo.reviews.filter((r) => r.verified).length;

    expect(seen.reviews).toMatchObject({
      business: demo.business.name,
      reviewCount: verified,
      listed: verified,
      bestRating: 5,
    });
    expect(seen.insights).toMatchObject({ status: 'ready', reviewCount: verified });
    expect((seen.insights!.aspects as string[]).length).toBeGreaterThan(0);
    expect(seen.feed).toMatchObject({ version: 'https://jsonfeed.org/version/1.1', items: 50 });
    expect(seen.atom).toBe(true);
    expect(seen.search).toMatchObject({ count: 3, ratings: [5, 5, 5] });
    expect(seen.search!.total).toBeGreaterThan(3);
    expect((seen.filtered!.ratings as number[]).every((r) => r >= 3.5)).toBe(true);
    expect(seen.filtered!.count).toBeGreaterThan(0);
    expect((seen.byService!.services as string[][]).every((s) => s.includes(service))).toBe(true);
    expect(seen.since!.since).toBe('2026-01-01');
    expect((seen.since!.dates as string[]).every((d) => d >= '2026-01-01')).toBe(true);
    expect(seen.openapi).toEqual({ version: '3.1.0', title: 'Reviews service' });
    expect(seen.invalid).toEqual({ status: 400, paths: [['rating']] });
    expect(seen.mcpStream).toEqual({ status: 405, code: -32000 });
    expect(seen.hubPage).toBe(405);
    expect(seen.head!.status).toBe(200);
    expect(seen.head!.etag).toMatch(/^"/);
    expect(seen.revalidated).toBe(304);
    expect(seen.initialize).toEqual({ status: 200, session: true });
  });

  it('rejects a program that names a wrong field, a wrong parameter or a wrong path parameter', async () => {
    const checked = await run(process.execPath, [TSC, '-p', writeProject('wrong', WRONG, false)], { cwd: dir.path });
    expect(checked.code).not.toBe(0);
    const errors = checked.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(
      errors.some((e) => e.includes('reviewTotal')),
      checked.stdout,
    ).toBe(true);
    expect(
      errors.some((e) => e.includes('ratings')),
      checked.stdout,
    ).toBe(true);
    expect(
      errors.some((e) => e.includes('day')),
      checked.stdout,
    ).toBe(true);
    expect(
      errors.every((e) => e.startsWith('wrong.ts(')),
      checked.stdout,
    ).toBe(true);
  });
});
