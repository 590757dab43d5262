// The engines a store test runs against: a SQLite file of its own, and a PostgreSQL schema of its own when PostgreSQL
// is reachable (skipped otherwise, as global-setup.ts says loudly). Everything made is removed after the file.
import { afterAll } from 'vitest';
import { tempDir } from './server.js';
import { postgres, schemasPerFile } from './postgres.js';

export interface TestEngine {
  name: 'sqlite' | 'postgres';
  /** False when the engine cannot run here (PostgreSQL unreachable): `describe.skipIf(!available)`. */
  available: boolean;
  /** A new, empty database of this engine (a DATABASE_URL). */
  url(): Promise<string>;
}

export function testEngines(prefix = 'store'): TestEngine[] {
  const dir = tempDir(`reviews-${prefix}-`);
  const freshSchema = schemasPerFile();
  let counter = 0;
  afterAll(() => dir.remove());
  return [
    { name: 'sqlite', available: true, url: async () => `sqlite:${dir.path}/${prefix}-${++counter}.db` },
    { name: 'postgres', available: postgres, url: freshSchema },
  ];
}
