// Third-party MCP clients as child processes: the official conformance suite's scenarios and the MCP Inspector CLI.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters as stripAnsi } from 'node:util';
import { z } from 'zod';

const require = createRequire(import.meta.url);

/** A file inside an installed package, found the way Node resolves the package itself. */
function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

const BinManifest = z.object({ bin: z.object({ conformance: z.string() }) });

/** The `conformance` bin of @modelcontextprotocol/conformance (run with this Node, not whatever `node` is on PATH). */
export function conformanceBin(): string {
  const dir = packageDir('@modelcontextprotocol/conformance');
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

/** Runs a Node script with this process's Node binary; never rejects, so the caller asserts on what happened. */
export function runNodeScript(script: string, args: string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<ProcessResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: options.cwd, timeout: options.timeoutMs ?? 45_000, maxBuffer: 64 << 20, env: { ...process.env, NO_COLOR: '1' } },
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

/** `conformance server --url <url> --scenario <name> -o <dir>`, then the checks.json it wrote. */
export async function runConformanceScenario(url: string, scenario: string): Promise<ScenarioRun> {
  const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  try {
    const result = await runNodeScript(conformanceBin(), ['server', '--url', url, '--scenario', scenario, '-o', out]);
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
    .map((check) => `${check.id}: ${check.errorMessage ?? check.description ?? 'failed'} — details ${brief(check.details)}`);
  if (run.checks.length === 0) {
    problems.push(`no checks.json was written (exit ${run.code}, signal ${run.signal}); stdout: ${stripAnsi(run.stdout).slice(-1500)} stderr: ${run.stderr.slice(-1500)}`);
  } else if (problems.length === 0 && !run.checks.some((check) => check.status === 'SUCCESS')) {
    const seen = run.checks.map((check) => `${check.id}=${check.status}${check.errorMessage ? ` (${check.errorMessage})` : ''}`);
    problems.push(`no check succeeded: ${seen.join('; ')}`);
  }
  if (run.code !== 0 && problems.length === 0) {
    problems.push(`exit ${run.code} (signal ${run.signal}) although no check failed; stdout: ${stripAnsi(run.stdout).slice(-1500)} stderr: ${run.stderr.slice(-1500)}`);
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
