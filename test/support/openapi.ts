// Test support for the OpenAPI tests: walking the served description, validating bodies against the schemas it declares, running tools.
import { execFile } from 'node:child_process';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

export type Json = Record<string, unknown>;

export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Walks a parsed JSON value by keys; undefined as soon as a step is missing. */
export function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** A JSON pointer (RFC 6901) fragment, URI-encoded, for keys such as "/api/reviews/since/{date}". */
export const pointer = (...parts: string[]) =>
  parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

export async function fetchDescription(url: string): Promise<Json> {
  const body: unknown = await (await fetch(url)).json();
  if (!isRecord(body)) throw new Error('the OpenAPI document is not an object');
  return body;
}

/**
 * Compiles the schema at a location of the description. The fetched document is itself the schema resource:
 * a `$ref` to #/components/schemas/… inside it resolves against the document's own URL.
 */
export function schemaAt(doc: Json, docUrl: string): (...location: string[]) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: under NodeNext its default export is the module object, whose .default is the plugin.
  formats.default(ajv);
  ajv.addSchema({ ...doc, $id: docUrl });
  return (...location) => ajv.compile({ $ref: `${docUrl}#/${pointer(...location)}` });
}

export interface Operation {
  path: string;
  method: string;
  operation: Json;
}

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

/** Every operation the description lists, callbacks left out. */
export function operationsOf(doc: Json): Operation[] {
  return Object.entries(at(doc, 'paths') as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => isRecord(item[m])).map((method) => ({ path, method, operation: item[method] as Json })),
  );
}

export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to completion; never rejects, so the caller asserts on what happened. */
export function run(
  file: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<ToolRun> {
  return new Promise((done) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: { ...process.env, NO_COLOR: '1', ...options.env },
        timeout: 120_000,
        maxBuffer: 64 << 20,
      },
      (error, stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}
