// Turns query strings into typed parameters through a Zod schema, with a 400 `issues` list for every problem.
import { z } from 'zod';
import type { ErrorIssue } from './errors.js';

export type QueryResult<T> = { ok: true; value: T } | { ok: false; issues: ErrorIssue[] };

/** Names of the schema's numeric properties, read from its JSON Schema so there is one source of truth. */
export function numericKeys(schema: z.ZodType): Set<string> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { type?: string }>;
  };
  return new Set(
    Object.entries(json.properties ?? {})
      .filter(([, p]) => p.type === 'integer' || p.type === 'number')
      .map(([k]) => k),
  );
}

const STRICT_NUMBER = /^-?\d+(\.\d+)?$/;

/** Zod's issues in the public `issues` shape; an unknown parameter is named by its own path, one issue each. */
export function toIssues(error: z.ZodError): ErrorIssue[] {
  return error.issues.flatMap((i): ErrorIssue[] => {
    const path = i.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    if (i.code === 'unrecognized_keys')
      return i.keys.map((key) => ({ path: [...path, key], message: `unknown parameter: ${key}`, code: i.code }));
    return [{ path, message: i.message, code: i.code }];
  });
}

/**
 * Validates raw query parameters: a repeated parameter is an issue, numbers must be written as plain decimals
 * ("1e0", " 3" and "0x3" stay strings and fail), and everything else is the schema's to judge.
 */
export function parseQuery<S extends z.ZodType>(
  schema: S,
  numeric: Set<string>,
  raw: Record<string, unknown>,
): QueryResult<z.output<S>> {
  const issues: ErrorIssue[] = [];
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (Array.isArray(value)) {
      issues.push({ path: [key], message: `repeated parameter: give ${key} once`, code: 'custom' });
      continue;
    }
    const typed = numeric.has(key) && typeof value === 'string' && STRICT_NUMBER.test(value) ? Number(value) : value;
    // Defined, not assigned: `input.__proto__ = …` would call the prototype setter and the parameter would vanish.
    Object.defineProperty(input, key, { value: typed, enumerable: true, writable: true, configurable: true });
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) issues.push(...toIssues(parsed.error));
  return issues.length ? { ok: false, issues } : { ok: true, value: (parsed as { data: z.output<S> }).data };
}
