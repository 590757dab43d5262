// Resource templates over the served version: one review, and the insights of one technician, service or aspect,
// each a JSON document of the single model (Review, and the insights document's entries), with completion of
// their variables (review ids, technician names, service ids, aspect ids).
import { McpServer, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import type { View } from '../publishing/view.js';
import { toPublic } from '../reviews/encoded-reviews.js';
import { AspectId } from '../reviews/schemas.js';
import { fold, technicianKeys } from '../reviews/text.js';

/** Completions answered at most (the MCP limit). */
const MAX_COMPLETIONS = 100;

export const TEMPLATES = {
  review: 'reviews://review/{id}',
  technician: 'reviews://technician/{name}',
  service: 'reviews://service/{id}',
  aspect: 'reviews://aspect/{id}',
} as const;

/** The values that start with what was typed (case and accents aside), at most MAX_COMPLETIONS. */
function startingWith(values: Iterable<string>, typed: string): string[] {
  const prefix = fold(typed);
  const found: string[] = [];
  for (const value of values) {
    if (fold(value).startsWith(prefix) || technicianKeys(value).some((key) => key.startsWith(prefix))) found.push(value);
    if (found.length === MAX_COMPLETIONS) break;
  }
  return found;
}

const json = (uri: URL, value: unknown) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value) }] });

/** A template variable as given: one value, percent-decoded (names hold spaces and accents). */
function variable(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function registerTemplates(server: McpServer, view: View): void {
  const { snapshot } = view;
  const insights = () => view.insights.document;

  server.registerResource(
    'review',
    new ResourceTemplate(TEMPLATES.review, { list: undefined, complete: { id: (typed) => startingWith(snapshot.reviews.map((r) => r.id), typed) } }),
    { title: 'One review', description: 'A verified review by id, every field included', mimeType: 'application/json' },
    (uri, { id }) => {
      const review = snapshot.index.get(variable(id));
      if (!review) throw new ResourceNotFoundError(uri.href);
      return json(uri, toPublic(review));
    },
  );

  server.registerResource(
    'technician',
    new ResourceTemplate(TEMPLATES.technician, { list: undefined, complete: { name: (typed) => startingWith(insights().entities.technicians.map((t) => t.name), typed) } }),
    {
      title: 'One technician',
      description: "What customers say about a technician (full or first name): reviews naming them, their average rating, how those reviews judge each aspect, quotes, and every review id",
      mimeType: 'application/json',
    },
    (uri, { name }) => {
      const wanted = technicianKeys(variable(name))[0] ?? '';
      const found = insights().entities.technicians.find((t) => technicianKeys(t.name).includes(wanted));
      if (!found) throw new ResourceNotFoundError(uri.href);
      return json(uri, found);
    },
  );

  server.registerResource(
    'service',
    new ResourceTemplate(TEMPLATES.service, { list: undefined, complete: { id: (typed) => startingWith(snapshot.business?.services.map((s) => s.id) ?? [], typed) } }),
    { title: 'One service', description: 'What customers say about a service of the catalogue (by id): reviews, average rating, aspects, quotes', mimeType: 'application/json' },
    (uri, { id }) => {
      const found = insights().entities.services.find((s) => s.id === variable(id));
      if (!found) throw new ResourceNotFoundError(uri.href);
      return json(uri, found);
    },
  );

  server.registerResource(
    'aspect',
    new ResourceTemplate(TEMPLATES.aspect, { list: undefined, complete: { id: (typed) => startingWith(AspectId.options, typed) } }),
    { title: 'One aspect', description: `How customers judge one aspect of the work (${AspectId.options.join(', ')}): counts, score, trend by quarter, quotes, review ids`, mimeType: 'application/json' },
    (uri, { id }) => {
      const found = insights().aspects.find((a) => a.id === variable(id));
      if (!found) throw new ResourceNotFoundError(uri.href);
      return json(uri, found);
    },
  );
}
