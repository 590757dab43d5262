// The validation stage: one file's records, mapped by its source's adapter and checked (the business's catalogue,
// reply dates, the language), each problem named by its place; the valid reviews are handed on a batch at a time,
// so nothing the size of the file is held in memory.
import { ImportedBusiness, LanguageTag, OwnerResponse, type Business } from '../reviews/schemas.js';
import { detectLanguage, loadLanguageDetector } from '../reviews/language.js';
import type { LocatedReview, StagedReview } from '../store/types.js';
import { fieldProblems, type Adapter, type MapContext, type MappedReview } from './adapter.js';
import type { ImportSource } from './own-source.js';
import { nameOf } from './jobs/rule.js';

export interface ImportIssue {
  file: string;
  /** Where in the file: "line 12" (NDJSON, CSV), "reviews[3]" (JSON document), "business", "header" or "the document". */
  location: string;
  field: string;
  reason: string;
}

export interface ImportBatch {
  /** Records that passed every check made so far. */
  reviews: LocatedReview[];
  /** Ids of records that failed but whose id could be read: `--replace` must not delete them. */
  rejectedIds: string[];
}

export type ReadProgress = (bytesRead: number, size: number) => void;

export interface ReadingEvents {
  problem: (issue: ImportIssue) => void;
  /** A record left out on purpose (not a star rating), with why. */
  skipped?: (issue: ImportIssue) => void;
}

/**
 * One reading of an import file. Problems are reported as they are found, in file order; the counts say what was
 * found in all. A problem with the file as a whole (its syntax, its header, its business) is a file problem:
 * it blocks the import even where invalid records could be skipped.
 */
export class ImportReading {
  /** The file's business, once read and valid. */
  business?: Business;
  /**
   * Some reviews came before the document's business, so their services could not be checked as they were read:
   * check the staged ones once the reading is done (against the file's business, or the stored one without it).
   */
  servicesUnchecked = false;
  records = 0;
  invalidRecords = 0;
  skippedRecords = 0;
  problems = 0;
  fileProblems = 0;
  private serviceIds: Set<string> | null;
  /** A JSON document may bring its business after its reviews: until it does, services wait. */
  private businessMayCome: boolean;

  private constructor(
    readonly file: string,
    private readonly source: ImportSource,
    private readonly adapter: Adapter,
    storedBusiness: Business | null,
    private readonly context: MapContext,
    private readonly events: ReadingEvents,
  ) {
    this.serviceIds = catalogueOf(storedBusiness);
    this.businessMayCome = source.format === 'json';
  }

  static async open(
    file: string,
    adapter: Adapter,
    storedBusiness: Business | null,
    context: MapContext,
    events: ReadingEvents | ReadingEvents['problem'],
  ): Promise<ImportReading> {
    const handlers = typeof events === 'function' ? { problem: events } : events;
    return new ImportReading(file, await adapter.open(file), adapter, storedBusiness, context, handlers);
  }

  get format(): string {
    return this.source.format;
  }

  async *batches(onProgress?: ReadProgress): AsyncGenerator<ImportBatch> {
    const { file } = this;
    for await (const item of this.source.items) {
      if (item.kind === 'business') this.readBusiness(item.value);
      else if (item.kind === 'problem') {
        const issue = { file, location: item.location, field: item.field, reason: item.reason };
        if (item.record) {
          this.records++;
          this.refuse([issue]);
        } else this.fileProblem(issue);
      } else {
        const batch: ImportBatch = { reviews: [], rejectedIds: [] };
        for (const { location, value } of item.records) {
          this.records++;
          const mapped = this.map(location, value);
          // The detector loads once, when the first record without a language needs it (it is large).
          if (mapped?.language === undefined && mapped) await loadLanguageDetector();
          const review = mapped && this.check(location, mapped);
          if (review) batch.reviews.push({ review, location });
          else {
            const id = (value as { id?: unknown } | null)?.id;
            if (typeof id === 'string') batch.rejectedIds.push(id);
          }
        }
        yield batch;
        onProgress?.(this.source.bytesRead(), this.source.size);
      }
    }
    onProgress?.(this.source.size, this.source.size);
  }

  /** Refuses one record: its problems are reported and counted, the record among the invalid ones. */
  refuse(issues: ImportIssue[]): void {
    this.invalidRecords++;
    this.problems += issues.length;
    for (const issue of issues) this.events.problem(issue);
  }

  /** The problems of a review's services against the business's catalogue (none when it lists no services). */
  serviceIssues(location: string, services: readonly string[]): ImportIssue[] {
    const known = this.serviceIds;
    if (!known) return [];
    return services.flatMap((id, i) =>
      known.has(id)
        ? []
        : [
            {
              file: this.file,
              location,
              field: `services.${i}`,
              reason: `unknown service id "${id}" (not in the business's catalogue)`,
            },
          ],
    );
  }

  /** Leaves one record out on purpose, and says why. */
  skip(issue: ImportIssue): void {
    this.skippedRecords++;
    this.events.skipped?.(issue);
  }

  /** The record as its adapter maps it; a skipped or invalid one is reported. */
  private map(location: string, value: unknown): MappedReview | undefined {
    const mapped = this.adapter.map(value, this.context);
    if (mapped.kind === 'skip') {
      this.skip({ file: this.file, location, field: '(record)', reason: mapped.reason });
      return undefined;
    }
    if (mapped.kind === 'invalid') {
      this.refuse(mapped.problems.map((p) => ({ file: this.file, location, ...p })));
      return undefined;
    }
    return mapped.review;
  }

  private check(location: string, mapped: MappedReview): StagedReview | undefined {
    const review = withLanguage(mapped);
    if (this.businessMayCome) this.servicesUnchecked = true;
    const issues = this.businessMayCome ? [] : this.serviceIssues(location, review.services);
    if (review.response && review.response.date < review.date) {
      issues.push({
        file: this.file,
        location,
        field: 'response.date',
        reason: 'owner response is dated before the review',
      });
    }
    if (!LanguageTag.safeParse(review.language).success)
      issues.push({
        file: this.file,
        location,
        field: 'language',
        reason: `"${review.language}" is not a BCP 47 language tag`,
      });
    if (review.response && !OwnerResponse.safeParse(review.response).success)
      issues.push({
        file: this.file,
        location,
        field: 'response',
        reason: 'a reply needs a date and a text of at most 20,000 characters',
      });
    if (issues.length) {
      this.refuse(issues);
      return undefined;
    }
    return review;
  }

  private readBusiness(value: unknown): void {
    const parsed = ImportedBusiness.safeParse(value);
    if (!parsed.success) {
      for (const issue of fieldProblems(parsed.error))
        this.fileProblem({
          file: this.file,
          location: 'business',
          field: `business.${issue.field}`,
          reason: issue.reason,
        });
      return;
    }
    this.business = parsed.data;
    this.serviceIds = catalogueOf(parsed.data);
    this.businessMayCome = false;
  }

  private fileProblem(issue: ImportIssue): void {
    this.problems++;
    this.fileProblems++;
    this.events.problem(issue);
  }
}

/**
 * The review with its language: the source's when it gives one, else detected from the customer's words.
 */
function withLanguage(review: MappedReview): StagedReview {
  const name = review.anonymous ? undefined : nameOf(review.author);
  return {
    ...review,
    language: review.language ?? detectLanguage(review.text),
    ...(name ? { nameKey: name.key } : {}),
  };
}

function catalogueOf(business: Business | null): Set<string> | null {
  return business && business.services.length ? new Set(business.services.map((s) => s.id)) : null;
}
