// Brings any engine's schema to the latest migration; every command that opens the store calls it first.
import { Migrator, type Kysely } from 'kysely';
import { migrationProvider } from './migrations/index.js';

export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<void> {
  const { error, results } = await new Migrator({ db: db as Kysely<unknown>, provider: migrationProvider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
