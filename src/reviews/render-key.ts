// Names the renderer of the catalogue documents: its compiled code and the public origin (links in the feeds), so
// stored renderings go stale by themselves when either changes.
import { createHash } from 'node:crypto';
import { compiledFolder, hashFolder } from '../fingerprint.js';
import type { Links } from './links.js';

let code: string | undefined;

/** Hashing the compiled reviews folder (some 200 KB) once per process takes milliseconds. */
export function renderKey(links: Links): string {
  if (code === undefined) {
    const hash = createHash('sha256');
    hashFolder(hash, compiledFolder(import.meta.url, 'reviews'));
    code = hash.digest('base64url');
  }
  return createHash('sha256').update(code).update('\0').update(links.baseUrl).digest('base64url').slice(0, 16);
}
