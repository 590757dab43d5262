// Validates an import file's records as it is read (JSON document, NDJSON or CSV), naming each problem's place,
// and hands on the valid ones a batch at a time: nothing the size of the file is held in memory.
import type { z } from 'zod';
import { openImportSource, type ImportFormat, type ImportSource } from './import-source.js';
import { ImportedBusiness, ImportedReview, type Business } from './schemas.js';

export interface ImportIssue {
  file: string;
  /** Where in the file: "line 12" (NDJSON, CSV), "reviews[3]" (JSON document), "business", "header" or "the document". */
  location: string;
  field: string;
  reason: string;
}

/** A review as validated, with where the file holds it ("line 12", "reviews[3]"). */
export interface LocatedReview {
  review: ImportedReview;
  location: string;
}

export interface ImportBatch {
  /** Records that passed every check made so far. */
  reviews: LocatedReview[];
  /** Ids of records that failed but whose id could be read: `--replace` must not delete them. */
  rejectedIds: string[];
}

export type ReadProgress = (bytesRead: number, size: number) => void;

function zodIssues(file: string, location: string, error: z.ZodError): ImportIssue[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const prefix = issue.path.length ? `${issue.path.join('.')}.` : '';
      return { file, location, field: issue.keys.map((k) => prefix + k).join(', '), reason: 'unknown field' };
    }
    return { file, location, field: issue.path.join('.') || '(record)', reason: issue.message };
  });
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
  problems = 0;
  fileProblems = 0;
  private serviceIds: Set<string> | null;
  /** A JSON document may bring its business after its reviews: until it does, services wait. */
  private businessMayCome: boolean;

  private constructor(
    readonly file: string,
    private readonly source: ImportSource,
    storedBusiness: Business | null,
    private readonly report: (issue: ImportIssue) => void,
  ) {
    this.serviceIds = catalogueOf(storedBusiness);
    this.businessMayCome = source.format === 'json';
  }

  static async open(file: string, storedBusiness: Business | null, report: (issue: ImportIssue) => void): Promise<ImportReading> {
    return new ImportReading(file, await openImportSource(file), storedBusiness, report);
  }

  get format(): ImportFormat {
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
          const review = this.check(location, value);
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
    for (const issue of issues) this.report(issue);
  }

  /** The problems of a review's services against the business's catalogue (none when it lists no services). */
  serviceIssues(location: string, services: readonly string[]): ImportIssue[] {
    const known = this.serviceIds;
    if (!known) return [];
    return services.flatMap((id, i) =>
      known.has(id) ? [] : [{ file: this.file, location, field: `services.${i}`, reason: `unknown service id "${id}" (not in the business's catalogue)` }],
    );
  }

  private check(location: string, value: unknown): ImportedReview | undefined {
    const parsed = ImportedReview.safeParse(value);
    if (!parsed.success) {
      this.refuse(zodIssues(this.file, location, parsed.error));
      return undefined;
    }
    const review = parsed.data;
    if (this.businessMayCome) this.servicesUnchecked = true;
    const issues = this.businessMayCome ? [] : this.serviceIssues(location, review.services);
    if (review.response && review.response.date < review.date) {
      issues.push({ file: this.file, location, field: 'response.date', reason: 'owner response is dated before the review' });
    }
    if (issues.length) {
      this.refuse(issues);
      return undefined;
    }
    return review;
  }

  private readBusiness(value: unknown): void {
    const parsed = ImportedBusiness.safeParse(value);
    if (!parsed.success) {
      for (const issue of zodIssues(this.file, 'business', parsed.error)) this.fileProblem({ ...issue, field: `business.${issue.field}` });
      return;
    }
    this.business = parsed.data;
    this.serviceIds = catalogueOf(parsed.data);
    this.businessMayCome = false;
  }

  private fileProblem(issue: ImportIssue): void {
    this.problems++;
    this.fileProblems++;
    this.report(issue);
  }
}

function catalogueOf(business: Business | null): Set<string> | null {
  return business && business.services.length ? new Set(business.services.map((s) => s.id)) : null;
}
