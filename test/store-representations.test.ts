// The store's rendered documents, through the Store interface alone: one data version's bytes per renderer, and the
// compressed copies kept beside them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/open.js';
import { RepresentationWriter } from '../src/store/representation-worker.js';
import type { Store, StoredRepresentation } from '../src/store/types.js';
import { testEngines } from './support/engines.js';

const engines = testEngines('renderings');

const T = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const rendering = (text: string): StoredRepresentation => ({ tag: `tag-${text}`, body: Buffer.from(text) });
const documents = (...texts: string[]) => new Map(texts.map((t, i) => [`doc${i}`, rendering(t)]));
/** What `find` gave, as plain strings (engines hand back Buffers or Uint8Arrays). */
const asText = (found: Map<string, StoredRepresentation>) =>
  Object.fromEntries([...found].map(([name, r]) => [name, { tag: r.tag, body: Buffer.from(r.body).toString() }]));

for (const { name, available, url } of engines)
  describe.skipIf(!available)(`${name} renderings store`, () => {
    let store: Store;
    let databaseUrl: string;
    beforeEach(async () => {
      databaseUrl = await url();
      store = await openStore(databaseUrl);
    });
    afterEach(async () => {
      await store.close();
    });

    it('finds what was stored for the same data and renderer only', async () => {
      expect(await store.representations.save(T(1), 'r1', documents('a', 'b'))).toBe(true);
      expect(asText(await store.representations.find(T(1), 'r1'))).toEqual({
        doc0: { tag: 'tag-a', body: 'a' },
        doc1: { tag: 'tag-b', body: 'b' },
      });
      expect((await store.representations.find(T(2), 'r1')).size).toBe(0);
      expect((await store.representations.find(T(1), 'r2')).size).toBe(0);
    });

    it('keeps a never-published store apart: its renderings have no asOf', async () => {
      expect(await store.representations.save(null, 'r1', documents('empty'))).toBe(true);
      expect(asText(await store.representations.find(null, 'r1'))).toEqual({
        doc0: { tag: 'tag-empty', body: 'empty' },
      });
      expect((await store.representations.find(T(1), 'r1')).size).toBe(0);
    });

    it('keeps only the newest data and one renderer of it, refuses older data, and replaces bytes that differ', async () => {
      expect(await store.representations.save(T(1), 'r1', documents('one'))).toBe(true);
      expect(await store.representations.save(T(2), 'r1', documents('two'))).toBe(true);
      expect((await store.representations.find(T(1), 'r1')).size).toBe(0);
      expect(await store.representations.save(T(1), 'r1', documents('old'))).toBe(false);
      expect((await store.representations.find(T(1), 'r1')).size).toBe(0);
      // Bytes that did not fit their data (rendered again by a server at start) replace the stored ones.
      expect(await store.representations.save(T(2), 'r1', documents('again'))).toBe(true);
      expect(asText(await store.representations.find(T(2), 'r1'))).toEqual({
        doc0: { tag: 'tag-again', body: 'again' },
      });
      // A new renderer (new code, or a new public origin) replaces the old one's bytes of the same data.
      expect(await store.representations.save(T(2), 'r2', documents('new'))).toBe(true);
      expect((await store.representations.find(T(2), 'r1')).size).toBe(0);
      expect(asText(await store.representations.find(T(2), 'r2'))).toEqual({ doc0: { tag: 'tag-new', body: 'new' } });
    });

    it('keeps compressed copies byte for byte beside stored bytes, the first one made, and none for bytes not stored', async () => {
      const big = Buffer.alloc(3 << 20, 7);
      await store.representations.save(T(1), 'r1', new Map([['reviews', { tag: 'big', body: big }]]));
      expect(await store.representations.findCopy('big', 'br')).toBeUndefined();
      const br = Buffer.from([1, 2, 3, 0, 255]);
      await store.representations.saveCopy('big', 'br', br);
      await store.representations.saveCopy('big', 'br', Buffer.from([9]));
      expect(Buffer.from((await store.representations.findCopy('big', 'br'))!)).toEqual(br);
      expect(await store.representations.findCopy('big', 'gzip')).toBeUndefined();
      await store.representations.saveCopy('elsewhere', 'gzip', br);
      expect(await store.representations.findCopy('elsewhere', 'gzip')).toBeUndefined();
      expect(Buffer.from((await store.representations.find(T(1), 'r1')).get('reviews')!.body).equals(big)).toBe(true);
      // Stored again with the same bytes (another replica's render of the same data): the copy stays.
      await store.representations.save(T(1), 'r1', new Map([['reviews', { tag: 'big', body: big }]]));
      expect(Buffer.from((await store.representations.findCopy('big', 'br'))!)).toEqual(br);
      // The copies go with their bytes.
      await store.representations.save(T(2), 'r1', documents('next'));
      expect(await store.representations.findCopy('big', 'br')).toBeUndefined();
    });

    it('writes from a thread of its own with the same answers as the store', async () => {
      const writer = new RepresentationWriter(databaseUrl);
      expect(await writer.save(T(2), 'r1', new Map([['reviews', { tag: 'big', body: Buffer.from('bytes') }]]))).toBe(
        true,
      );
      expect(await writer.save(T(1), 'r1', documents('old'))).toBe(false);
      await writer.saveCopy('big', 'gzip', Buffer.from([4, 5, 6]));
      expect(asText(await store.representations.find(T(2), 'r1'))).toEqual({ reviews: { tag: 'big', body: 'bytes' } });
      expect(Buffer.from((await store.representations.findCopy('big', 'gzip'))!)).toEqual(Buffer.from([4, 5, 6]));
    });
  });
