// The served OpenAPI 3.1 description is valid, describes every route and search parameter, its examples are true, and every live read matches the schema it declares.
import { Validator } from '@seriousme/openapi-schema-validator';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEFAULTS, generateDemo } from '../src/demo/generate.js';
import { EXAMPLE_DEMO, exampleData } from '../src/openapi/examples.js';
import { InsightsEngine } from '../src/insights/engine.js';
import type { ImportedReview } from '../src/reviews/schemas.js';
import { at, fetchDescription, isRecord, operationsOf, schemaAt, type Json } from './support/openapi.js';
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

let doc: Json;
const docUrl = () => `${server.url}/.well-known/openapi.json`;

beforeAll(async () => {
  server = await startServer(`${dir.path}/openapi.db`);
  await publish(server, { business: demo.business, reviews: [...demo.reviews, complete], replace: true });
  await server.app.publisher.insightsReady();
  doc = await fetchDescription(docUrl());
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

  it('names this deployment (its BASE_URL) as the server', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: server.url })]);
  });

  it('declares the API public: an empty security requirement and no scheme', () => {
    expect(doc.security).toEqual([]);
    expect(at(doc, 'components', 'securitySchemes')).toEqual({});
    for (const { operation } of operationsOf(doc)) expect(operation.security).toBeUndefined();
  });

  it('carries the MIT licence with its SPDX identifier, and a contact', () => {
    expect(at(doc, 'info', 'license')).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(at(doc, 'info', 'contact', 'name')).toBeTypeOf('string');
  });

  it('describes every route the service serves, and nothing else', () => {
    const described = operationsOf(doc).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    const reads = [
      '/reviews.json',
      '/insights.json',
      '/api/feed.json',
      '/feed.xml',
      '/api/reviews/search',
      '/api/reviews/since/{date}',
      '/.well-known/openapi.json',
    ];
    const pages = [
      '/',
      '/reviews/{id}',
      '/docs',
      '/badge.svg',
      '/embed',
      '/verification',
      '/llms.txt',
      '/robots.txt',
      '/sitemap.xml',
      '/assets/{file}',
      '/.well-known/mcp/server-card',
      '/.well-known/mcp/server-card.json',
    ];
    expect([...described].sort()).toEqual(
      [
        ...[...reads, ...pages].flatMap((p) => [`GET ${p}`, `HEAD ${p}`]),
        'POST /mcp',
        'DELETE /mcp',
        'GET /mcp',
        'HEAD /mcp',
        'POST /api/websub/hub',
        'GET /api/websub/hub',
        'HEAD /api/websub/hub',
        ...['/healthz', '/readyz', '/metrics'].flatMap((p) => [`GET ${p}`, `HEAD ${p}`]),
      ].sort(),
    );
  });

  it('gives every operation a unique operationId, a summary and a tag the document defines', () => {
    const tags = new Set((doc.tags as Json[]).map((t) => t.name));
    const ids = operationsOf(doc).map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, operation } of operationsOf(doc)) {
      expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.summary, `${method} ${path}`).toBeTypeOf('string');
      expect(
        (operation.tags as string[]).every((t) => tags.has(t)),
        `${method} ${path}`,
      ).toBe(true);
    }
  });

  it('pairs every GET with a HEAD of the same parameters and statuses', () => {
    for (const { path, method, operation } of operationsOf(doc).filter((o) => o.method === 'get')) {
      const head = at(doc, 'paths', path, 'head');
      expect(at(head, 'parameters'), `HEAD ${path}`).toEqual(operation.parameters);
      expect(Object.keys(at(head, 'responses') as Json), `${method} ${path}`).toEqual(
        Object.keys(operation.responses as Json),
      );
    }
  });

  // redocly.yaml switches operation-2xx-response off for these four alone; this keeps the exception that narrow.
  it('gives every operation a 2XX answer but GET and HEAD on /mcp and the hub, which only refuse (405)', () => {
    const refusing = operationsOf(doc).filter(
      ({ operation }) => !Object.keys(operation.responses as Json).some((s) => /^2/.test(s)),
    );
    expect(refusing.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      'get /api/websub/hub',
      'get /mcp',
      'head /api/websub/hub',
      'head /mcp',
    ]);
    for (const { operation } of refusing)
      expect(at(operation, 'responses', '405', 'headers', 'Allow')).toBeTypeOf('object');
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

  it('describes the insights as always 200, ready or building, with Retry-After and Cache-Control while building', () => {
    const ok = at(doc, 'paths', '/insights.json', 'get', 'responses', '200');
    expect(at(ok, 'headers', 'Retry-After', 'schema')).toMatchObject({ type: 'integer' });
    expect(at(ok, 'headers', 'Cache-Control', 'description')).toMatch(/no-store/);
    expect(at(doc, 'components', 'schemas', 'Insights', 'properties', 'status', 'enum')).toEqual(['building', 'ready']);
    expect(Object.keys(at(ok, 'content', 'application/json', 'examples') as Json).sort()).toEqual([
      'building',
      'ready',
    ]);
  });

  it('offers as hub.topic exactly the topics the hub serves', () => {
    const topics = at(doc, 'components', 'schemas', 'HubRequest', 'properties', 'hub.topic', 'enum');
    expect([...(topics as string[])].sort()).toEqual(server.app.hub.topics.map((t) => t.url).sort());
  });

  describe('search parameters', () => {
    function parameter(name: string): Json {
      const parameters = at(doc, 'paths', '/api/reviews/search', 'get', 'parameters');
      const found = Array.isArray(parameters)
        ? parameters.filter((p) => isRecord(p) && p.name === name && p.in === 'query')
        : [];
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
      const names = Array.isArray(parameters)
        ? parameters.filter((p) => isRecord(p) && p.in === 'query').map((p) => at(p, 'name'))
        : [];
      expect([...names].sort()).toEqual([
        'limit',
        'mentions_service',
        'mentions_technician',
        'min_rating',
        'query',
        'rating',
        'since',
        'until',
      ]);
    });

    it('describes a 400 for invalid parameters', () => {
      expect(
        at(doc, 'paths', '/api/reviews/search', 'get', 'responses', '400', 'content', 'application/json', 'schema'),
      ).toBeTypeOf('object');
    });
  });

  it('describes the since path parameter as a required date', () => {
    const parameters = at(doc, 'paths', '/api/reviews/since/{date}', 'get', 'parameters');
    const date = Array.isArray(parameters)
      ? parameters.find((p) => isRecord(p) && p.name === 'date' && p.in === 'path')
      : undefined;
    expect(date).toMatchObject({ required: true, schema: { type: 'string', format: 'date' } });
  });
});

describe('the examples', () => {
  /** Every example of a request or response body in the paths: the media type object it is in, and its value. */
  function bodyExamples(): { where: string[]; name: string; value: unknown }[] {
    const found: { where: string[]; name: string; value: unknown }[] = [];
    for (const { path, method, operation } of operationsOf(doc)) {
      const bodies: [string[], unknown][] = [
        [['requestBody'], operation.requestBody],
        ...Object.entries(operation.responses as Json).map(([status, r]): [string[], unknown] => [
          ['responses', status],
          r,
        ]),
      ];
      for (const [key, body] of bodies) {
        for (const [type, media] of Object.entries((at(body, 'content') ?? {}) as Record<string, Json>)) {
          const where = ['paths', path, method, ...key, 'content', type];
          if ('example' in media) found.push({ where, name: 'example', value: media.example });
          for (const [name, ex] of Object.entries((media.examples ?? {}) as Record<string, Json>))
            found.push({ where, name, value: ex.value });
        }
      }
    }
    return found;
  }

  it('are many, and each validates against the schema beside it', () => {
    const examples = bodyExamples();
    expect(examples.length).toBeGreaterThan(30);
    const compile = schemaAt(doc, docUrl());
    for (const { where, name, value } of examples) {
      const validate = compile(...where, 'schema');
      expect(validate(value), `${where.join(' → ')} → ${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('show the demo business of seed 42', () => {
    const reviews = at(
      doc,
      'paths',
      '/reviews.json',
      'get',
      'responses',
      '200',
      'content',
      'application/json',
      'examples',
      'demo',
      'value',
    );
    expect(at(reviews, 'business', 'name')).toBe(generateDemo({ seed: 42, reviews: 0 }).business.name);
  });

  it('are rendered from the committed demo data, which is what the demo generator makes (the file is its output)', async () => {
    const generated = generateDemo(EXAMPLE_DEMO);
    // Rewrite after a deliberate change to the demo generator: npx vitest run test/openapi.test.ts -u
    await expect(
      `${JSON.stringify({ ...EXAMPLE_DEMO, until: DEMO_DEFAULTS.until, ...generated }, null, 2)}\n`,
    ).toMatchFileSnapshot(resolve(import.meta.dirname, '../src/openapi/demo-example.json'));
    const data = exampleData();
    expect(data.business).toEqual(generated.business);
    expect(data.reviews.map((r) => r.id).sort()).toEqual(
      generated.reviews
        .filter((r) => r.verified)
        .map((r) => r.id)
        .sort(),
    );
  });

  it('include the insights the insights engine computes for the same demo data (the committed file is its output)', async () => {
    const data = exampleData();
    const publishedAt = data.version.publishedAt!;
    const { insights } = await new InsightsEngine().build({
      business: data.business,
      reviews: data.reviews,
      asOf: publishedAt,
      generatedAt: publishedAt,
    });
    // Rewrite after a deliberate change to the engine or its schema: npx vitest run test/openapi.test.ts -u
    await expect(`${JSON.stringify(insights, null, 2)}\n`).toMatchFileSnapshot(
      resolve(import.meta.dirname, '../src/openapi/insights-example.json'),
    );
    const served = at(
      doc,
      'paths',
      '/insights.json',
      'get',
      'responses',
      '200',
      'content',
      'application/json',
      'examples',
      'ready',
      'value',
    );
    expect(served).toEqual(JSON.parse(JSON.stringify(insights)));
  });
});

describe('live responses match the schemas the document declares', () => {
  let schemaOf: ReturnType<typeof schemaAt>;
  beforeAll(() => {
    schemaOf = schemaAt(doc, docUrl());
  });

  const EXPECTED_EMPTY = new Set(['/api/reviews/search?query=zzzz-nothing-matches', '/api/reviews/since/2099-01-01']);
  /** The declared schema is a named component, or a choice between named components. */
  const NAMED = /^#\/components\/schemas\/[A-Za-z0-9_.-]+$/;

  it.each([
    ['/reviews.json', '/reviews.json', 200],
    ['/insights.json', '/insights.json', 200],
    ['/api/feed.json', '/api/feed.json', 200],
    ['/.well-known/openapi.json', '/.well-known/openapi.json', 200],
    ['/api/reviews/search', '/api/reviews/search', 200],
    ['/api/reviews/search', '/api/reviews/search?rating=5&limit=100', 200],
    ['/api/reviews/search', '/api/reviews/search?min_rating=3.5&since=2024-01-01&until=2025-12-31', 200],
    [
      '/api/reviews/search',
      `/api/reviews/search?mentions_technician=${encodeURIComponent(technician.split(' ')[0] ?? '')}&mentions_service=${service}`,
      200,
    ],
    ['/api/reviews/search', '/api/reviews/search?query=fixed%20the&limit=1', 200],
    ['/api/reviews/search', '/api/reviews/search?query=zzzz-nothing-matches', 200],
    ['/api/reviews/since/{date}', '/api/reviews/since/2026-01-01', 200],
    ['/api/reviews/since/{date}', '/api/reviews/since/2099-01-01', 200],
    ['/api/reviews/search', '/api/reviews/search?rating=9', 400],
    ['/api/reviews/search', '/api/reviews/search?limit=0&since=2025-02-30&unknown=1', 400],
    ['/api/reviews/since/{date}', '/api/reviews/since/2025-02-30', 400],
    ['/api/reviews/since/{date}', '/api/reviews/since/2025-01-01?limit=5', 400],
    ['/api/reviews/since/{date}', '/api/reviews/since/%zz', 400],
    ['/api/reviews/since/{date}', `/api/reviews/since/${'1'.repeat(201)}`, 414],
  ])('%s: GET %s answers %i with a body matching its declared schema', async (template, url, status) => {
    const res = await fetch(`${server.url}${url}`);
    expect(res.status).toBe(status);
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const location = ['paths', template, 'get', 'responses', String(status), 'content', type, 'schema'];
    const declared = at(doc, ...location);
    expect(declared, `no schema declared at ${location.join(' → ')}`).toBeTypeOf('object');
    // Every JSON body the service defines is a named component, not an ad-hoc inline schema.
    const refs = Array.isArray(at(declared, 'anyOf'))
      ? (at(declared, 'anyOf') as Json[]).map((s) => s.$ref)
      : [at(declared, '$ref')];
    for (const ref of refs) expect(ref).toMatch(NAMED);
    const validate = schemaOf(...location);
    const body: unknown = await res.json();
    const valid = validate(body);
    expect(valid, JSON.stringify(validate.errors, null, 2)).toBe(true);
    if (status === 200 && isRecord(body) && Array.isArray(body.reviews) && !EXPECTED_EMPTY.has(url)) {
      expect(body.reviews.length, 'a vacuous listing proves little').toBeGreaterThan(0);
    }
  });

  it.each([
    ['/api/reviews/search?rating=9', '/api/reviews/search'],
    ['/api/reviews/since/2025-02-30', '/api/reviews/since/{date}'],
  ])('answers GET %s with exactly the 400 example of %s', async (url, template) => {
    const res = await fetch(`${server.url}${url}`);
    expect(await res.json()).toEqual(
      at(doc, 'paths', template, 'get', 'responses', '400', 'content', 'application/json', 'example'),
    );
  });

  it('answers any operation 431 in the declared shape when the request headers exceed 16 KiB', async () => {
    const res = await fetch(`${server.url}/reviews.json`, { headers: { 'x-padding': 'a'.repeat(17 * 1024) } });
    expect(res.status).toBe(431);
    const validate = schemaOf(
      'components',
      'responses',
      'RequestHeaderFieldsTooLarge',
      'content',
      'application/json',
      'schema',
    );
    const body: unknown = await res.json();
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    '/reviews.json',
    '/insights.json',
    '/api/feed.json',
    '/feed.xml',
    '/api/reviews/search?rating=5',
    '/api/reviews/since/2026-01-01',
    '/.well-known/openapi.json',
  ])('answers HEAD %s as GET, with the declared headers and no body', async (url) => {
    const [get, head] = await Promise.all([
      fetch(`${server.url}${url}`),
      fetch(`${server.url}${url}`, { method: 'HEAD' }),
    ]);
    expect(head.status).toBe(get.status);
    expect(await head.text()).toBe('');
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    const path = url.split('?')[0]!.replace(/\/since\/.*$/, '/since/{date}');
    const declared = Object.keys((at(doc, 'paths', path, 'head', 'responses', '200', 'headers') ?? {}) as Json).map(
      (h) => h.toLowerCase(),
    );
    for (const name of ['etag', 'cache-control', 'vary']) {
      expect(declared, path).toContain(name);
      expect(head.headers.get(name), `${name} on HEAD ${url}`).not.toBeNull();
    }
  });

  it('rejects a body that breaks the declared schema, so the checks above can fail', async () => {
    const ref = at(
      doc,
      'paths',
      '/api/reviews/search',
      'get',
      'responses',
      '200',
      'content',
      'application/json',
      'schema',
      '$ref',
    );
    if (typeof ref !== 'string') throw new Error('the search response declares no $ref');
    const validate = schemaOf(...ref.slice(2).split('/'));
    const body: unknown = await (await fetch(`${server.url}/api/reviews/search?limit=2`)).json();
    expect(validate(body)).toBe(true);
    if (!isRecord(body) || !Array.isArray(body.reviews) || !isRecord(body.reviews[0]))
      throw new Error('no review in the search response');
    const review = body.reviews[0];
    expect(validate({ ...body, reviews: [{ ...review, rating: 6 }] })).toBe(false);
    expect(validate({ ...body, reviews: [{ ...review, date: '2025-02-30' }] })).toBe(false);
    expect(validate({ ...body, reviews: [{ ...review, extra: true }] })).toBe(false);
    const { count: _count, ...withoutCount } = body;
    expect(validate(withoutCount)).toBe(false);
    // The JSON-pointer route reaches the same schema through the operation.
    const byPointer = schemaOf(
      'paths',
      '/api/reviews/search',
      'get',
      'responses',
      '200',
      'content',
      'application/json',
      'schema',
    );
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
    const res = await fetch(`${empty().url}${url}`);
    expect(res.status).toBe(200);
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const validate = schemaAt(doc, docUrl())('paths', template, 'get', 'responses', '200', 'content', type, 'schema');
    const valid = validate(await res.json());
    expect(valid, JSON.stringify(validate.errors, null, 2)).toBe(true);
  });
});
