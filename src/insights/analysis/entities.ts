// Recognises the business's technicians (full names, first names, nicknames) and services (catalogue names and
// everyday words such as "AC") in review text, beside the review's own fields.
import type { Business } from '../../reviews/schemas.js';
import { fold, technicianKeys } from '../../reviews/text.js';
import { foldedText } from './fold.js';
import { INSTALL_WORDS, REPAIR_WORDS, SERVICE_WORDS } from './lexicon.js';

/** First names that are also everyday words: matched only when written with a capital ("Bill" the tech, not the bill). */
const COMMON_WORD_NAMES = new Set([
  'bill',
  'will',
  'rob',
  'art',
  'chase',
  'grant',
  'mark',
  'pat',
  'sue',
  'joy',
  'hope',
  'rich',
  'jack',
  'frank',
  'ray',
  'dawn',
  'guy',
  'mike',
  'max',
  'drew',
  'sky',
  'hunter',
  'page',
  'rose',
  'faith',
  'summer',
  'june',
  'may',
  'april',
  'bob',
  'gene',
  'lane',
  'dean',
  'wade',
  'cliff',
  'glen',
  'miles',
  'stone',
  'sonny',
  'buddy',
  'doc',
  'ace',
  'chip',
]);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface NamePattern {
  name: string;
  folded: RegExp;
  /** Only for common-word names: case-sensitive on the original text. */
  capitalised?: RegExp;
}

function wordsRegex(words: string[], flags: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escape).join('|')})(?![\\p{L}\\p{N}])`, flags);
}

export class EntityMatcher {
  private readonly names: NamePattern[] = [];
  private readonly serviceGroups: { ids: string[]; install: string[]; repair: string[]; pattern: RegExp }[] = [];

  constructor(business: Business | null) {
    for (const technician of business?.technicians ?? []) {
      const keys = technicianKeys(technician.name);
      const variants = [...keys, ...(technician.aliases ?? []).map((a) => fold(a).trim())];
      const plain = variants.filter((v) => !COMMON_WORD_NAMES.has(v));
      const common = variants.filter((v) => COMMON_WORD_NAMES.has(v));
      this.names.push({
        name: technician.name,
        folded: wordsRegex(plain.length ? plain : keys.slice(0, 1), 'iu'),
        ...(common.length
          ? {
              capitalised: wordsRegex(
                common.map((c) => c[0]!.toUpperCase() + c.slice(1)),
                'u',
              ),
            }
          : {}),
      });
    }
    const services = business?.services ?? [];
    for (const group of SERVICE_WORDS) {
      const ids = services
        .filter((s) => group.name.some((n) => fold(`${s.name} ${s.id.replace(/-/g, ' ')}`).includes(n)))
        .map((s) => s.id);
      if (ids.length === 0) continue;
      const named = (pattern: RegExp) =>
        ids.filter((id) => pattern.test(fold(`${id} ${services.find((s) => s.id === id)!.name}`)));
      this.serviceGroups.push({
        ids,
        install: named(/install|replace|new/),
        repair: named(/repair|fix|service|clean/),
        pattern: wordsRegex(group.words, 'iu'),
      });
    }
  }

  /** Catalogue names of the technicians named in the fields or the text, in catalogue order. */
  technicians(text: string, fields: readonly string[]): string[] {
    const folded = fold(text);
    const listed = new Set(fields.map((f) => fold(f).trim()));
    const found = this.names
      .filter((n) => listed.has(fold(n.name)) || n.folded.test(folded) || n.capitalised?.test(text))
      .map((n) => n.name);
    // Names in the fields that the catalogue does not know still count.
    for (const field of fields) if (!found.some((n) => fold(n) === fold(field).trim())) found.push(field);
    return found;
  }

  /** Service ids from the fields and the text; "AC" alone means its repair, "new AC" its installation. */
  services(text: string, fields: readonly string[]): string[] {
    const found = new Set(fields);
    const folded = foldedText(text);
    const words = new Set(folded.split(/[^\p{L}\p{N}]+/u));
    const installing = [...INSTALL_WORDS].some((w) => (w.includes(' ') ? folded.includes(w) : words.has(w)));
    const repairing = [...REPAIR_WORDS].some((w) => (w.includes(' ') ? folded.includes(w) : words.has(w)));
    for (const group of this.serviceGroups) {
      if (!group.pattern.test(folded)) continue;
      // Already named by a field of the same group: the field is more precise than the words.
      if (group.ids.some((id) => found.has(id))) continue;
      const pick =
        (installing && !repairing ? group.install[0] : undefined) ??
        group.repair[0] ??
        group.install[0] ??
        group.ids[0];
      if (pick) found.add(pick);
    }
    return [...found];
  }
}
