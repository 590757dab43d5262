// Rendered documents are stored data: a restart serves the bytes (and compressed copies) stored for its data instead
// of rendering and compressing them again, and renders whatever stored bytes do not fit the data.
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';
import { openSqlite } from './support/sqlite.js';
import { until } from './support/wait.js';

const dir = tempDir();
afterAll(() => dir.remove());
// Over 1 MiB of dataset: its compressed copies are made when first asked for, and kept.
const demo = generateDemo({ seed: 5, reviews: 3000 });
// The same public origin at every start: it is part of what the stored bytes were made with.
const env = { BASE_URL: 'https://reviews.example', RELOAD_INTERVAL_MS: '600000' };

interface Fetched {
  status: number;
  etag: string | null;
  body: Buffer;
}

async function get(server: RunningServer, path: string, coding = 'identity'): Promise<Fetched> {
  // node's fetch would decode the body: undici's own request keeps the bytes as sent.
  const { request } = await import('undici');
  const res = await request(`${server.url}${path}`, { headers: { 'accept-encoding': coding } });
  const etag = res.headers.etag;
  return {
    status: res.statusCode,
    etag: typeof etag === 'string' ? etag : null,
    body: Buffer.from(await res.body.arrayBuffer()),
  };
}

interface Row {
  name: string;
  tag: string;
  body: Buffer;
  /** The brotli copy kept beside it, if one was made. */
  br: Buffer | null;
}

/** The stored renderings and their brotli copies, read from the SQLite file itself. */
function storedRows(dbPath: string): Row[] {
  const db = openSqlite(dbPath, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT d.name, d.tag, d.body, c.body AS br FROM rendered_documents d LEFT JOIN rendered_copies c ON c.tag = d.tag AND c.coding = 'br' ORDER BY d.name",
      )
      .all() as Row[];
  } finally {
    db.close();
  }
}

function updateStored(dbPath: string, sql: string, ...values: unknown[]): void {
  const db = openSqlite(dbPath);
  try {
    expect(db.prepare(sql).run(...values).changes).toBe(1);
  } finally {
    db.close();
  }
}

describe('stored renderings', () => {
  const dbPath = `${dir.path}/restart.db`;
  let dataset: Fetched;
  let datasetBr: Fetched;

  it('stores the documents of the version served, and a large one’s compressed copy once it is made', async () => {
    const server = await startServer(dbPath, env);
    try {
      await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
      dataset = await get(server, '/reviews.json');
      expect(dataset.body.length).toBeGreaterThan(1 << 20);
      // The empty store's documents were stored first, at start: these replace them.
      const rows = await until(
        () => {
          const stored = storedRows(dbPath);
          return stored.some((r) => r.name === 'reviews' && `"${r.tag}"` === dataset.etag) && stored;
        },
        20_000,
        'the rendered documents to be stored',
      );
      expect(rows.map((r) => r.name)).toEqual(['atomFeed', 'jsonFeed', 'reviews']);
      const reviews = rows.find((r) => r.name === 'reviews')!;
      expect(reviews.body.equals(dataset.body)).toBe(true);
      expect(`"${reviews.tag}"`).toBe(dataset.etag);
      datasetBr = await get(server, '/reviews.json', 'br');
      expect(datasetBr.etag).toBe(`"${reviews.tag}-br"`);
      await until(
        () =>
          storedRows(dbPath)
            .find((r) => r.name === 'reviews')
            ?.br?.equals(datasetBr.body),
        20_000,
        'the brotli copy to be stored',
      );
    } finally {
      await server.close();
    }
  });

  it('serves the stored bytes and copies after a restart, not bytes rendered again', async () => {
    // Bytes no render of this data would make: what a restart serves shows where it took them from.
    const feed = storedRows(dbPath).find((r) => r.name === 'jsonFeed')!;
    const marked = Buffer.from(feed.body.toString('utf8').replace('"version":', '"_stored":true,"version":'));
    updateStored(dbPath, "UPDATE rendered_documents SET body = ? WHERE name = 'jsonFeed'", marked);
    const otherBr = brotliCompressSync(dataset.body.subarray(0, 1000));
    updateStored(dbPath, "UPDATE rendered_copies SET body = ? WHERE coding = 'br'", otherBr);

    const server = await startServer(dbPath, env);
    try {
      expect((await get(server, '/api/feed.json')).body.equals(marked)).toBe(true);
      const again = await get(server, '/reviews.json');
      expect(again.etag).toBe(dataset.etag);
      expect(again.body.equals(dataset.body)).toBe(true);
      const br = await get(server, '/reviews.json', 'br');
      expect(br.etag).toBe(datasetBr.etag);
      expect(br.body.equals(otherBr)).toBe(true);
      // Its review entries were taken from the stored dataset too: a since listing is those same bytes.
      const since = await get(server, `/api/reviews/since/${demo.reviews.map((r) => r.date).sort()[0]}`);
      expect(since.status).toBe(200);
      const listed = JSON.parse(since.body.toString('utf8')) as { count: number; reviews: unknown[] };
      expect(listed.count).toBeGreaterThan(0);
      expect(listed.reviews).toEqual(
        (JSON.parse(dataset.body.toString('utf8')) as { reviews: unknown[] }).reviews.slice(0, listed.count),
      );
    } finally {
      await server.close();
    }
  });

  it('renders a stored dataset again when its bytes do not fit the data, and stores the rendering', async () => {
    const stored = storedRows(dbPath).find((r) => r.name === 'reviews')!;
    // One review's entry gone: the layout of another dataset.
    const text = stored.body.toString('utf8');
    const cut = text.indexOf(',{"id":');
    const next = text.indexOf(',{"id":', cut + 1);
    updateStored(
      dbPath,
      "UPDATE rendered_documents SET body = ? WHERE name = 'reviews'",
      Buffer.from(text.slice(0, cut) + text.slice(next)),
    );

    const server = await startServer(dbPath, env);
    try {
      const again = await get(server, '/reviews.json');
      expect(again.etag).toBe(dataset.etag);
      expect(again.body.equals(dataset.body)).toBe(true);
      await until(
        () =>
          storedRows(dbPath)
            .find((r) => r.name === 'reviews')
            ?.body.equals(dataset.body),
        20_000,
        'the dataset rendered again to be stored',
      );
      // Its copies were of other bytes: they went with them, and a br request is compressed afresh from the right ones.
      const br = await get(server, '/reviews.json', 'br');
      expect(brotliDecompressSync(br.body).equals(dataset.body)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
