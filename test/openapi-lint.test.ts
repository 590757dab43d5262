// Redocly CLI, with the recommended rules as redocly.yaml sets them, finds no error and no warning in the live description.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchDescription, run, type Json } from './support/openapi.js';
import { startServer, tempDir, type RunningServer } from './support/server.js';

const ROOT = resolve(import.meta.dirname, '..');
const REDOCLY = join(ROOT, 'node_modules', '.bin', 'redocly');
const CONFIG = join(ROOT, 'redocly.yaml');

/**
 * Nothing leaves the machine: REDOCLY_TELEMETRY=off (also `telemetry: off` in redocly.yaml) stops usage data,
 * and REDOCLY_SUPPRESS_UPDATE_NOTICE=true stops the check of the npm registry for a newer version.
 */
const OFFLINE = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

/** The part of `redocly lint --format=json` this test reads. */
const LintReport = z.object({
  totals: z.object({ errors: z.number(), warnings: z.number(), ignored: z.number() }),
  problems: z.array(
    z.object({
      ruleId: z.string(),
      severity: z.string(),
      message: z.string(),
      location: z.array(z.object({ pointer: z.string() })),
    }),
  ),
});
type LintReport = z.infer<typeof LintReport>;

const dir = tempDir('reviews-lint-');
let server: RunningServer;
let doc: Json;

async function lint(document: Json, name: string): Promise<LintReport> {
  const file = join(dir.path, name);
  writeFileSync(file, JSON.stringify(document, null, 2));
  const result = await run(REDOCLY, ['lint', file, '--config', CONFIG, '--format=json'], {
    cwd: dir.path,
    env: OFFLINE,
  });
  // Exit code 1 means problems, not a failed run: the report on stdout says which.
  expect(result.code, result.stderr).toBeLessThanOrEqual(1);
  return LintReport.parse(JSON.parse(result.stdout));
}

const listed = (report: LintReport) =>
  report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`).join('\n');

beforeAll(async () => {
  server = await startServer(join(dir.path, 'lint.db'));
  doc = await fetchDescription(`${server.url}/.well-known/openapi.json`);
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

describe('redocly lint of the live description', () => {
  it('reports 0 errors and 0 warnings', async () => {
    const report = await lint(doc, 'openapi.json');
    expect(report.totals, listed(report)).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('does report a description with problems, so the check above can fail', async () => {
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const { operationId: _dropped, ...withoutId } = paths['/reviews.json']!.get!;
    const broken = {
      ...doc,
      security: undefined,
      paths: { ...paths, '/reviews.json': { ...paths['/reviews.json'], get: withoutId } },
    };
    const report = await lint(broken, 'broken.json');
    const rules = new Set(report.problems.map((p) => p.ruleId));
    expect(rules).toContain('operation-operationId');
    expect(rules).toContain('security-defined');
    expect(report.totals.errors).toBeGreaterThan(0);
  });
});
