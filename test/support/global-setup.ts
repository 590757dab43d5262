// Before any test file: the test CA exists and every test process trusts it (Node reads NODE_EXTRA_CA_CERTS at
// start), and PostgreSQL is there, or the run says loudly which tests it skips (under CI, it fails instead).
import { makeTestPki } from './tls.js';
import { dropStaleSchemas, POSTGRES_URL, postgresReachable } from './postgres.js';

export default async function setup(): Promise<void> {
  const pki = makeTestPki();
  process.env.NODE_EXTRA_CA_CERTS = pki.caCert;
  const unreachable = await postgresReachable();
  if (unreachable === undefined) {
    await dropStaleSchemas();
    return;
  }
  const where = `${POSTGRES_URL} (set TEST_POSTGRES_URL to use another)`;
  if (process.env.CI)
    throw new Error(
      `PostgreSQL is not reachable at ${where}: ${unreachable}. CI runs the PostgreSQL tests; start PostgreSQL first.`,
    );
  const line = '!'.repeat(100);
  process.stderr.write(
    `\n${line}\n!!! PostgreSQL is not reachable at ${where}: ${unreachable}\n` +
      `!!! EVERY POSTGRESQL TEST IS SKIPPED (the store suite's PostgreSQL half, replicas, PostgreSQL faults).\n` +
      `!!! Start PostgreSQL to run them; CI fails without it.\n${line}\n\n`,
  );
}
