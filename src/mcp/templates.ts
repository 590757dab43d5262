// Resource templates over the served version: one review, and the insights of one technician, service or aspect,
// each a JSON document of the single model (Review, and the insights document's entries), with completion of
// their variables (review ids, technician names, service ids, aspect ids).
import { McpServer, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import type { View } from '../publishing/view.js';
import { toPublic } from '../reviews/encoded-reviews.js';
import { AspectId } from '../reviews/schemas.js';
import { technicianKeys } from '../reviews/text.js';
import { completionIndex, type Completion, type CompletionIndex } from './completions.js';

export const TEMPLATES = {
  review: 'reviews://review/{id}',
  technician: 'reviews://technician/{name}',
  service: 'reviews://service/{id}',
  aspect: 'reviews://aspect/{id}',
} as const;

const NO_SERVICES: readonly { id: string }[] = [];

/** Each template's one variable and the index of the values it completes to, in a served version. */
const COMPLETED: Record<keyof typeof TEMPLATES, { variable: string; index: (view: View) => CompletionIndex }> = {
  review: { variable: 'id', index: ({ snapshot }) => completionIndex(snapshot.reviews, (r) => r.id) },
  technician: {
    variable: 'name',
    index: ({ insights }) => completionIndex(insights.document.entities.technicians, (t) => t.name),
  },
  service: {
    variable: 'id',
    index: ({ snapshot }) => completionIndex(snapshot.business?.services ?? NO_SERVICES, (s) => s.id),
  },
  aspect: { variable: 'id', index: () => completionIndex(AspectId.options, (id) => id) },
};

/**
 * The completion of a template's variable from what was typed, or undefined when `uri` is not one of the templates
 * or `variable` not its variable (the SDK answers those).
 */
export function completeVariable(view: View, uri: unknown, variable: unknown, typed: string): Completion | undefined {
  const entry = Object.entries(TEMPLATES).find(([, template]) => template === uri);
  if (!entry) return undefined;
  const completed = COMPLETED[entry[0] as keyof typeof TEMPLATES];
  return completed.variable === variable ? completed.index(view).complete(typed) : undefined;
}

/** The completer the SDK calls for a template's variable (at most MAX_COMPLETIONS values). */
const completer = (view: View, name: keyof typeof TEMPLATES) => ({
  [COMPLETED[name].variable]: (typed: string) => COMPLETED[name].index(view).complete(typed).values,
});

const json = (uri: URL, value: unknown) => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value) }],
});

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
    new ResourceTemplate(TEMPLATES.review, { list: undefined, complete: completer(view, 'review') }),
    { title: 'One review', description: 'A verified review by id, every field included', mimeType: 'application/json' },
    (uri, { id }) => {
      const review = snapshot.index.get(variable(id));
      if (!review) throw new ResourceNotFoundError(uri.href);
      return json(uri, toPublic(review));
    },
  );

  server.registerResource(
    'technician',
    new ResourceTemplate(TEMPLATES.technician, { list: undefined, complete: completer(view, 'technician') }),
    {
      title: 'One technician',
      description:
        'What customers say about a technician (full or first name): reviews naming them, their average rating, how those reviews judge each aspect, quotes, and every review id',
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
    new ResourceTemplate(TEMPLATES.service, { list: undefined, complete: completer(view, 'service') }),
    {
      title: 'One service',
      description:
        'What customers say about a service of the catalogue (by id): reviews, average rating, aspects, quotes',
      mimeType: 'application/json',
    },
    (uri, { id }) => {
      const found = insights().entities.services.find((s) => s.id === variable(id));
      if (!found) throw new ResourceNotFoundError(uri.href);
      return json(uri, found);
    },
  );

  server.registerResource(
    'aspect',
    new ResourceTemplate(TEMPLATES.aspect, { list: undefined, complete: completer(view, 'aspect') }),
    {
      title: 'One aspect',
      description: `How customers judge one aspect of the work (${AspectId.options.join(', ')}): counts, score, trend by quarter, quotes, review ids`,
      mimeType: 'application/json',
    },
    (uri, { id }) => {
      const found = insights().aspects.find((a) => a.id === variable(id));
      if (!found) throw new ResourceNotFoundError(uri.href);
      return json(uri, found);
    },
  );
}
