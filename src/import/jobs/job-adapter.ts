// What a job source is: it reads a field-service system's files into completed jobs, the proof a review is verified
// against. A new system is one adapter file: the job pipeline validates, stages and applies every source alike.
import type { FieldProblem } from '../adapter.js';

/**
 * A completed job as a source hands it on. Everything here but the technicians, services, area and completion
 * date is private: the ledger keeps only keyed hashes of the ids and contacts, and never the street address.
 */
export interface LedgerJob {
  /** The job's id in its system (private). */
  id: string;
  /** Other numbers a review may carry for the job (Jobber's `jobNumber`, ServiceTitan's `jobNumber`) (private). */
  aliases: string[];
  /** When the job was completed: an RFC 3339 time, or a calendar date (`YYYY-MM-DD`, the business's local date). */
  completed: string;
  /** The customer as the system names them: a full name, or its first and last names. */
  customer: { name?: string; firstName?: string; lastName?: string };
  /** Email addresses and phone numbers of the customer, as written (private). */
  emails: string[];
  phones: string[];
  /** Technicians' names as the business writes them (public once a review takes them). */
  technicians: string[];
  /** Services, by catalogue id or by name: the ledger keeps those the business's catalogue knows. */
  services: string[];
  /** The service area: the job's city (public once a review takes it). */
  area?: string;
}

export type MappedJob =
  | { kind: 'job'; job: LedgerJob }
  /**
   * Not a completed job (scheduled, cancelled): left out and counted, not an error. `id`: the job's, so that a job
   * the ledger holds as completed and its system no longer does (cancelled since) is taken out of the ledger.
   */
  | { kind: 'skip'; reason: string; id?: string }
  | { kind: 'invalid'; problems: FieldProblem[] };

/** One record as read, mapped, with the file and place it came from ("line 12", "jobs[3]"). */
export interface JobRecord {
  file: string;
  location: string;
  mapped: MappedJob;
}

/** What a source's reading yields, in order. */
export type JobItem =
  | { kind: 'records'; records: JobRecord[] }
  /** A problem with a file as a whole (its syntax, its shape): the import is refused. */
  | { kind: 'problem'; file: string; location: string; field: string; reason: string };

export interface JobAdapter {
  /** The `--from` name (`own` for the service's own ledger format), and the feed recorded on each job. */
  readonly name: string;
  /**
   * Reads all the files of one import: a system whose export comes in several files (ServiceTitan's jobs,
   * customers, contacts and assignments) joins them here. `bytesRead` reports progress over all files.
   */
  read(files: string[], progress?: (bytesRead: number, size: number) => void): AsyncIterable<JobItem>;
}
