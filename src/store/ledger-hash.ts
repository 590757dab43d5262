// The ledger's keyed hashes: what the store keeps of a job's id, a review's reference and a customer's contacts, so
// that they can be matched without being stored. The key is the store's own (made by its migration): the hashes of
// one store say nothing about another's, and a dictionary of phone numbers cannot be run against them elsewhere.
import { createHmac } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';

/** The store's key of the ledger's hashes (made by its migration). */
export async function ledgerKey(db: QueryExecutorProvider): Promise<string> {
  const { rows } = await sql<{ hash_key: string }>`SELECT hash_key FROM ledger_state WHERE id = 1`.execute(db);
  if (!rows[0]) throw new Error('the store has no ledger key: were its migrations applied?');
  return rows[0].hash_key;
}

export function keyedHash(key: string, value: string): string {
  return createHmac('sha256', key).update(value).digest('base64url');
}

/** A job id or reference as a review may carry it: case, spaces and a leading `#` do not matter ("#J-1042" is "j-1042"). */
export function normalReference(value: string): string {
  return value.trim().replace(/^#\s*/, '').replace(/\s+/g, '').toLowerCase();
}

export function normalEmail(value: string): string | undefined {
  const email = value.trim().toLowerCase();
  return /^[^@\s]+@[^@\s]+$/.test(email) ? email : undefined;
}

/** A phone number by its last ten digits (a North American number with or without its country code). */
export function normalPhone(value: string): string | undefined {
  const digits = value.replace(/\D/g, '');
  return digits.length >= 7 ? digits.slice(-10) : undefined;
}
