// The service's own import format (JSON document, NDJSON or CSV): the default source. A record's `verified` is the
// operator's word for it.
import { ImportedReview } from '../reviews/schemas.js';
import { ownFields } from '../store/import-staging.js';
import { fieldProblems, type Adapter } from './adapter.js';
import { openImportSource } from './own-source.js';

export const own: Adapter = {
  name: 'own',
  open: openImportSource,
  map(value) {
    const parsed = ImportedReview.safeParse(value);
    if (!parsed.success) return { kind: 'invalid', problems: fieldProblems(parsed.error) };
    return { kind: 'review', review: ownFields(parsed.data) };
  },
};
