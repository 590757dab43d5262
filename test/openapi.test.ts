// The served OpenAPI 3.1 description is valid, describes every path and search parameter, and every live response matches the schema it declares.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import type { ImportedReview } from '../src/reviews/schemas.js';
import { publish, serverPerBlock, startServer, tempDir, type RunningServer } from './support/server.js';

const dir = tempDir();
let server: RunningServer;
const demo = generateDemo({ seed: 3, reviews: 300 });
const technician = demo.business.technicians[0]?.name ?? '';
const service = demo.business.services[0]?.id ?? '';
// One review with every optional field, so the schemas meet them all.
const complete: ImportedReview = {
  id: 'zz-complete',
  date: '2026-11-16',
  rating: 4,
  title: 'Every field filled',
  text: 'Came on time & fixed the <thermostat>; “great” job 👍',
  author: 'Renée O.',
  technicians: [technician],
  services: [service],
  serviceArea: demo.business.areaServed[0] ?? 'Downtown',
  source: 'phone survey',
  response: { date: '2026-11-17', text: 'Thank you, Renée!' },
  verified: true,
};

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Walks a parsed JSON value by keys; undefined as soon as a step is missing. */
function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

let doc: Json;
const docUrl = () => `${server.url}/.well-known/openapi.json`;

beforeAll(async () => {
  server = await startServer(`${dir.path}/openapi.db`);
  await publish(server, { business: demo.business, reviews: [...demo.reviews, complete], replace: true });
  await server.app.publisher.insightsReady();
  const body: unknown = await (await fetch(docUrl())).json();
  if (!isRecord(body)) throw new Error('the OpenAPI document is not an object');
  doc = body;
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

describe('the OpenAPI document', () => {
  it('is served as JSON at /.well-known/openapi.json', async () => {
    const res = await fetch(docUrl());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.valid, JSON.stringify(result.errors, null, 2)).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('declares OpenAPI 3.1.0 and interface version 1.0.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(at(doc, 'info', 'version')).toBe('1.0.0');
  });

  it.each([
    ['/reviews.json', 'application/json'],
    ['/insights.json', 'application/json'],
    ['/api/feed.json', 'application/feed+json'],
    ['/feed.xml', 'application/atom+xml'],
    ['/api/reviews/search', 'application/json'],
    ['/api/reviews/since/{date}', 'application/json'],
    ['/.well-known/openapi.json', 'application/json'],
  ])('describes GET %s with a 200 %s response', (path, type) => {
    expect(Object.keys(at(doc, 'paths') ?? {})).toContain(path);
    expect(at(doc, 'paths', path, 'get', 'responses', '200', 'content', type, 'schema')).toBeTypeOf('object');
  });

  describe('search parameters', () => {
    function parameter(name: string): Json {
      const parameters = at(doc, 'paths', '/api/reviews/search', 'get', 'parameters');
      const found = Array.isArray(parameters) ? parameters.filter((p) => isRecord(p) && p.name === name && p.in === 'query') : [];
      expect(found, name).toHaveLength(1);
      const [only] = found;
      if (!isRecord(only)) throw new Error(`no query parameter ${name}`);
      expect(only.required ?? false, name).toBe(false);
      return only;
    }

    it('describes rating as an integer from 1 to 5', () => {
      expect(parameter('rating').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
    });

    it('describes min_rating as a number from 1 to 5', () => {
      expect(parameter('min_rating').schema).toMatchObject({ type: 'number', minimum: 1, maximum: 5 });
    });

    it.each(['since', 'until'])('describes %s as a string of format date', (name) => {
      expect(parameter(name).schema).toMatchObject({ type: 'string', format: 'date' });
    });

    it.each(['query', 'mentions_technician', 'mentions_service'])('describes %s as a string', (name) => {
      expect(parameter(name).schema).toMatchObject({ type: 'string' });
    });

    it('describes limit as an integer from 1 to 100, default 20', () => {
      expect(parameter('limit').schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    });

    it('describes no query parameter beyond those of the interface', () => {
      const parameters = at(doc, 'paths', '/api/reviews/search', 'get', 'parameters');
      const names = Array.isArray(parameters) ? parameters.filter((p) => isRecord(p) && p.in === 'query').map((p) => at(p, 'name')) : [];
      expect([...names].sort()).toEqual(
        ['limit', 'mentions_service', 'mentions_technician', 'min_rating', 'query', 'rating', 'since', 'until'],
      );
    });

    it('describes a 400 for invalid parameters', () => {
      expect(at(doc, 'paths', '/api/reviews/search', 'get', 'responses', '400', 'content', 'application/json', 'schema')).toBeTypeOf('object');
    });
  });

  it('describes the since path parameter as a required date', () => {
    const parameters = at(doc, 'paths', '/api/reviews/since/{date}', 'get', 'parameters');
    const date = Array.isArray(parameters) ? parameters.find((p) => isRecord(p) && p.name === 'date' && p.in === 'path') : undefined;
    expect(date).toMatchObject({ required: true, schema: { type: 'string', format: 'date' } });
  });
});

describe('live responses match the schemas the document declares', () => {
  // The fetched document is itself the schema resource: a `$ref` to #/components/schemas/… inside it resolves
  // against the document's own URL, and a JSON pointer reaches the exact schema each operation declares.
  let ajv: Ajv2020;
  beforeAll(() => {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    // ajv-formats is CommonJS: under NodeNext its default export is the module object, whose .default is the plugin.
    formats.default(ajv);
    ajv.addSchema({ ...doc, $id: docUrl() });
  });

  const EXPECTED_EMPTY = new Set(['/api/reviews/search?query=zzzz-nothing-matches', '/api/reviews/since/2099-01-01']);
  const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

  it.each([
    ['/reviews.json', '/reviews.json', 200],
    ['/insights.json', '/insights.json', 200],
    ['/api/feed.json', '/api/feed.json', 200],
    ['/.well-known/openapi.json', '/.well-known/openapi.json', 200],
    ['/api/reviews/search', '/api/reviews/search', 200],
    ['/api/reviews/search', '/api/reviews/search?rating=5&limit=100', 200],
    ['/api/reviews/search', '/api/reviews/search?min_rating=3.5&since=2024-01-01&until=2025-12-31', 200],
    ['/api/reviews/search', `/api/reviews/search?mentions_technician=${encodeURIComponent(technician.split(' ')[0] ?? '')}&mentions_service=${service}`, 200],
    ['/api/reviews/search', '/api/reviews/search?query=fixed%20the&limit=1', 200],
    ['/api/reviews/search', '/api/reviews/search?query=zzzz-nothing-matches', 200],
    ['/api/reviews/since/{date}', '/api/reviews/since/2026-01-01', 200],
    ['/api/reviews/since/{date}', '/api/reviews/since/2099-01-01', 200],
    ['/api/reviews/search', '/api/reviews/search?rating=9', 400],
    ['/api/reviews/search', '/api/reviews/search?limit=0&since=2025-02-30&unknown=1', 400],
    ['/api/reviews/since/{date}', '/api/reviews/since/2025-02-30', 400],
    ['/api/reviews/since/{date}', '/api/reviews/since/2025-01-01?limit=5', 400],
  ])('%s: GET %s answers %i with a body matching its declared schema', async (template, url, status) => {
    const res = await fetch(`${server.url}${url}`);
    expect(res.status).toBe(status);
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const location = ['paths', template, 'get', 'responses', String(status), 'content', type, 'schema'];
    const declared = at(doc, ...location);
    expect(declared, `no schema declared at ${location.join(' → ')}`).toBeTypeOf('object');
    if (url !== '/.well-known/openapi.json') {
      // Every JSON body the service defines is a named component, not an ad-hoc inline schema.
      expect(at(declared, '$ref')).toMatch(/^#\/components\/schemas\/[A-Za-z0-9_.-]+$/);
    }
    const validate = ajv.compile({ $ref: `${docUrl()}#/${pointer(...location)}` });
    const body: unknown = await res.json();
    const valid = validate(body);
    expect(valid, JSON.stringify(validate.errors, null, 2)).toBe(true);
    if (status === 200 && isRecord(body) && Array.isArray(body.reviews) && !EXPECTED_EMPTY.has(url)) {
      expect(body.reviews.length, 'a vacuous listing proves little').toBeGreaterThan(0);
    }
  });

  it('rejects a body that breaks the declared schema, so the checks above can fail', async () => {
    const ref = at(doc, 'paths', '/api/reviews/search', 'get', 'responses', '200', 'content', 'application/json', 'schema', '$ref');
    if (typeof ref !== 'string') throw new Error('the search response declares no $ref');
    const validate = ajv.compile({ $ref: `${docUrl()}${ref}` });
    const body: unknown = await (await fetch(`${server.url}/api/reviews/search?limit=2`)).json();
    expect(validate(body)).toBe(true);
    if (!isRecord(body) || !Array.isArray(body.reviews) || !isRecord(body.reviews[0])) throw new Error('no review in the search response');
    const review = body.reviews[0];
    expect(validate({ ...body, reviews: [{ ...review, rating: 6 }] })).toBe(false);
    expect(validate({ ...body, reviews: [{ ...review, date: '2025-02-30' }] })).toBe(false);
    expect(validate({ ...body, reviews: [{ ...review, extra: true }] })).toBe(false);
    const { count: _count, ...withoutCount } = body;
    expect(validate(withoutCount)).toBe(false);
    // The JSON-pointer route used above reaches the same schema.
    const byPointer = ajv.compile({
      $ref: `${docUrl()}#/${pointer('paths', '/api/reviews/search', 'get', 'responses', '200', 'content', 'application/json', 'schema')}`,
    });
    expect(byPointer(body)).toBe(true);
    expect(byPointer({ ...body, reviews: [{ ...review, rating: 6 }] })).toBe(false);
  });
});

describe('an empty store', () => {
  const empty = serverPerBlock(`${dir.path}/empty.db`);

  it.each([
    ['/reviews.json', '/reviews.json'],
    ['/insights.json', '/insights.json'],
    ['/api/feed.json', '/api/feed.json'],
    ['/api/reviews/search', '/api/reviews/search?rating=5'],
    ['/api/reviews/since/{date}', '/api/reviews/since/2020-01-01'],
  ])('%s: GET %s matches its declared schema with no business and no reviews', async (template, url) => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    formats.default(ajv);
    ajv.addSchema({ ...doc, $id: docUrl() });
    const res = await fetch(`${empty().url}${url}`);
    expect(res.status).toBe(200);
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const ref = at(doc, 'paths', template, 'get', 'responses', '200', 'content', type, 'schema', '$ref');
    if (typeof ref !== 'string') throw new Error(`no $ref declared for ${template} ${type}`);
    const validate = ajv.compile({ $ref: `${docUrl()}${ref}` });
    const valid = validate(await res.json());
    expect(valid, JSON.stringify(validate.errors, null, 2)).toBe(true);
  });
});
