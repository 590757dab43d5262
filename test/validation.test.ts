// Bad search and since parameters are 400 with an `issues` array naming each problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tempDir, type RunningServer } from './support/server.js';

const dir = tempDir();
let server: RunningServer;

beforeAll(async () => {
  server = await startServer(`${dir.path}/validation.db`);
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

interface ErrorBody {
  error: string;
  message: string;
  issues: { path: (string | number)[]; message: string; code: string }[];
}

async function get(path: string): Promise<{ status: number; body: ErrorBody; type: string | null }> {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, body: (await res.json()) as ErrorBody, type: res.headers.get('content-type') };
}

describe('search parameter validation', () => {
  it.each([
    ['rating=0', 'rating'],
    ['rating=6', 'rating'],
    ['rating=2.5', 'rating'],
    ['rating=abc', 'rating'],
    ['rating=', 'rating'],
    ['rating=1e0', 'rating'],
    ['min_rating=0', 'min_rating'],
    ['min_rating=5.5', 'min_rating'],
    ['min_rating=x', 'min_rating'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=-1', 'limit'],
    ['since=2025-13-01', 'since'],
    ['since=2025-02-30', 'since'],
    ['since=20250101', 'since'],
    ['until=2025-02-29', 'until'],
    ['since=2025-03-01&until=2025-02-01', 'since'],
    ['rating=3&rating=4', 'rating'],
    ['limit=5&limit=5', 'limit'],
    ['query=', 'query'],
    ['mentions_service=Not%20An%20Id', 'mentions_service'],
  ])('rejects %s naming %s', async (qs, field) => {
    const { status, body, type } = await get(`/api/reviews/search?${qs}`);
    expect(status).toBe(400);
    expect(type).toMatch(/^application\/json/);
    expect(body.error).toBe('invalid_request');
    expect(body.issues.length).toBeGreaterThan(0);
    expect(body.issues.some((i) => i.path[0] === field)).toBe(true);
    for (const issue of body.issues) {
      expect(Object.keys(issue).sort()).toEqual(['code', 'message', 'path']);
    }
  });

  it('rejects an unknown parameter, naming it', async () => {
    const { status, body } = await get('/api/reviews/search?ratng=5');
    expect(status).toBe(400);
    expect(body.issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', message: expect.stringContaining('ratng') }),
    ]);
  });

  it('reports every problem at once', async () => {
    const { body } = await get('/api/reviews/search?rating=9&limit=0&since=2025-02-30&x=1');
    const paths = body.issues.map((i) => String(i.path[0] ?? ''));
    expect(paths).toEqual(expect.arrayContaining(['rating', 'limit', 'since']));
    expect(body.issues.some((i) => i.code === 'unrecognized_keys')).toBe(true);
  });

  it('accepts the boundaries', async () => {
    for (const qs of [
      'rating=1',
      'rating=5',
      'min_rating=1',
      'min_rating=5',
      'min_rating=4.5',
      'limit=1',
      'limit=100',
      'since=2024-02-29&until=2024-02-29',
    ]) {
      const res = await fetch(`${server.url}/api/reviews/search?${qs}`);
      expect(res.status, qs).toBe(200);
    }
  });
});

describe('since path validation', () => {
  it.each(['2025-13-01', '2025-02-30', '20250101', 'yesterday', '2025-1-01'])(
    'rejects /api/reviews/since/%s',
    async (date) => {
      const { status, body } = await get(`/api/reviews/since/${date}`);
      expect(status).toBe(400);
      expect(body.error).toBe('invalid_request');
      expect(body.issues).toEqual([expect.objectContaining({ path: ['date'] })]);
    },
  );

  it('rejects query parameters on since', async () => {
    const { status, body } = await get('/api/reviews/since/2025-01-01?limit=5');
    expect(status).toBe(400);
    expect(body.issues[0]?.path).toEqual(['limit']);
  });

  it('accepts a valid date', async () => {
    const res = await fetch(`${server.url}/api/reviews/since/2024-02-29`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ since: '2024-02-29', count: 0, reviews: [] });
  });
});
