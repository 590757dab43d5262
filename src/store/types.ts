// The store contract: the source of truth behind every engine (SQLite, PostgreSQL); the read path never queries it per request.
import type { DataVersion, PublishedData } from '../reviews/published.js';
import type { ReviewDelta } from '../reviews/review-set.js';
import type { Business, ImportedReview, Translation, VerificationMethod } from '../reviews/schemas.js';
import type { StoreChange } from './dialect.js';
import type { VerificationCounts } from '../reviews/verification.js';
import type { OperatorStore } from './operator-store.js';

/** The feed of the service's own import format (a platform's feed is its name: `google`, `podium`, …). */
export const OWN_FEED = 'own';

/**
 * A review as an import hands it to the store, normalised whatever file it came from: dates are the business's
 * local dates, `id` is unique per platform (`google:AbFvOq9`), `text` the customer's own words (empty when the
 * review is a rating alone).
 */
export interface StagedReview {
  id: string;
  date: string;
  rating: number;
  text: string;
  author: string;
  technicians: string[];
  services: string[];
  serviceArea?: string;
  source?: string;
  title?: string;
  response?: { date: string; text: string };
  language: string;
  translation?: Translation;
  /** How the import says the review is verified; null: it does not (it waits, stored, unpublished). */
  verification: VerificationMethod | null;
  /** The export it arrived through: `own`, or the platform or tool (`google`, `podium`). */
  feed: string;
  /** When the platform says the review (or its reply) was last edited (ISO time): an older copy never replaces a newer. */
  upstreamUpdatedAt?: string;
  /** The platform shows the reviewer anonymously: never to be matched to a person. */
  anonymous?: boolean;
  /** What the verification rule reads of the author (`robert s`), when the import read it. */
  nameKey?: string;
  /** A private reference the review carries (Trustpilot's `referenceId`): never published. */
  reference?: string;
}

/** A review as staged, with where the file holds it ("line 12", "reviews[3]"). */
export interface LocatedReview {
  review: StagedReview;
  location: string;
}

/** The reviews a `--complete` import holds all of: those whose id has this prefix, or that arrived through this feed. */
export interface CompleteScope {
  idPrefix?: string;
  feed?: string;
}

export interface ApplyOptions {
  /** Replaces the stored business when given; an import without one keeps it. */
  business?: Business;
  /** Make the stored reviews of the service's own format equal the staged ones (platforms' reviews and tombstones stay). */
  replace: boolean;
  /** Reviews in this scope that are not staged are withdrawn (an upstream deletion). */
  complete?: CompleteScope;
  /** What the operator log says of the import: its files and source. */
  log?: { files?: string[]; source?: string; verified?: boolean };
  /** The verification rule: the reviews the import wrote are matched against the job ledger before it commits. */
  match?: Matcher;
}

/** A review as the verification rule sees it: never its rating or its words. */
export interface MatchReview {
  id: string;
  date: string;
  /** Its author's first name and last initial, folded (`robert s`); null when the name lacks either. */
  nameKey: string | null;
  /** The keyed hash of its author's whole last name, folded, when the author gives more than an initial. */
  lastName: string | null;
  /** The keyed hash of a job reference it carries. */
  reference: string | null;
  anonymous: boolean;
}

/** A completed job as the rule sees it. */
export interface MatchJob {
  /** The job in the ledger (its source and keyed id hash): private, never published. */
  key: string;
  /** Its completion, the business's local date. */
  date: string;
  nameKey: string | null;
  /** The keyed hash of the customer's whole last name, folded. */
  lastName: string | null;
  /** Keyed hashes of the customer's emails and phones: two jobs sharing one are of one customer. */
  contacts: readonly string[];
}

export type MatchOutcome =
  | { kind: 'matched'; method: 'job' | 'reference'; job: MatchJob }
  /** Two or more jobs fit: not verified; the candidates' completion dates say why. */
  | { kind: 'ambiguous'; dates: string[] }
  | { kind: 'none' };

/** The verification rule, handed to the store by the domain: the store finds the candidates, the rule decides. */
export interface Matcher {
  readonly windowDays: number;
  /** What reads names and dates: reviews matched by another version (or window) are all matched again. */
  readonly version: string;
  /** The name as the rule reads it: its key (`robert s`) and the whole last name, folded, when given. */
  nameOf(author: string): { key: string; last?: string } | undefined;
  /** `byReference`: the jobs the review's reference names; `byName`: the jobs of its name key (any date). */
  decide(review: MatchReview, byReference: readonly MatchJob[], byName: readonly MatchJob[]): MatchOutcome;
}

/** What a matching run changed. */
export interface MatchSummary {
  /** Reviews the rule looked at. */
  examined: number;
  verified: number;
  unverified: number;
  /** Reviews whose technicians, services or area from their job changed. */
  refilled: number;
  /** How long the run took, reading and writing included (ms). */
  ms: number;
}

/** A completed job as an import hands it to the store; the store hashes its id, aliases and contacts with its key. */
export interface StagedJob {
  id: string;
  aliases: string[];
  /** The business's local date of completion. */
  date: string;
  nameKey: string | null;
  /** The customer's whole last name, folded (the store keeps its keyed hash). */
  lastName: string | null;
  emails: string[];
  phones: string[];
  technicians: string[];
  services: string[];
  area: string | null;
}

export interface LocatedJob {
  job: StagedJob;
  location: string;
}

export interface JobImportSummary {
  added: number;
  updated: number;
  unchanged: number;
  /** Jobs the ledger held as completed that the files say are not (cancelled since): taken out. */
  removed: number;
  match: MatchSummary;
  /** What the ledger holds after the import. */
  stored: { jobs: number };
  version: DataVersion;
}

export interface JobStaging {
  /** Stages jobs in file order; answers the locations of ids staged already (in this call or before). */
  add(jobs: LocatedJob[]): Promise<{ location: string; first: string }[]>;
  /** Ids of jobs the files hold but not as completed: the ledger's copies of them are taken out at apply. */
  withdraw(ids: string[]): Promise<void>;
  /** Applies the staged jobs and the rule's new verdicts in one transaction, with its line in the operator log. */
  apply(
    options: { source: string; files: string[]; match: Matcher },
    onProgress?: ImportProgress,
  ): Promise<JobImportSummary>;
}

/** A review that waits for its job, or that two or more jobs fit. */
export interface UnmatchedReview {
  id: string;
  date: string;
  source: string | null;
  state: 'none' | 'ambiguous' | 'anonymous' | 'unnamed';
  /** Completion dates of the jobs that fit (ambiguous only): never the jobs' customers or ids. */
  candidates: string[];
}

/** The job ledger: completed jobs, and the reviews the rule could not verify. */
export interface LedgerStore {
  stageJobs<T>(work: (staging: JobStaging) => Promise<T>): Promise<T>;
  /** Unpublished reviews the ledger could decide (not removed, withdrawn or decided by the operator), oldest first. */
  unmatched(limit: number): Promise<{ reviews: UnmatchedReview[]; total: number }>;
}

/** The published data of a newer version, as the changes since an older one. */
export interface PublishedChanges {
  version: DataVersion;
  business: Business | null;
  verification: VerificationCounts;
  delta: ReviewDelta;
}

export interface ImportPlan {
  /** Replaces the stored business when given; an import without one keeps it. */
  business?: Business;
  reviews: ImportedReview[];
  /** Make the stored reviews equal the plan's: ids absent from it (and from `retainIds`) are removed. */
  replace: boolean;
  /** Ids kept under `replace` though not in `reviews` (records rejected by validation are not deletions). */
  retainIds?: string[];
}

export interface ImportSummary {
  added: number;
  updated: number;
  unchanged: number;
  /** Deleted by `replace`. */
  removed: number;
  /** Withdrawn by `complete`: gone upstream. */
  withdrawn: number;
  /** Staged reviews the operator removed: their tombstones stay. */
  keptRemoved: number;
  /** Staged reviews the platform edited since: the stored copy is newer. */
  olderIgnored: number;
  businessChanged: boolean;
  /** What matching the written reviews against the job ledger changed (when the import matched). */
  match?: MatchSummary;
  /** What the store holds after the import: published (verified), unpublished, removed, withdrawn. */
  stored: { verified: number; unverified: number; removed: number; withdrawn: number };
  version: DataVersion;
}

export type ImportProgress = (done: number, total: number) => void;

/** A record whose id was staged before: it is not staged again. */
export interface Duplicate {
  id: string;
  location: string;
  first: string;
}

export interface ImportStaging {
  /** Stages reviews in file order; answers the ones whose id is staged already (in this call or before). */
  add(reviews: LocatedReview[]): Promise<Duplicate[]>;
  /** Ids kept under `replace` though not staged: records refused by validation are not deletions. */
  retain(ids: string[]): Promise<void>;
  /** The staged reviews' ids, locations and service ids, in file order, a page at a time. */
  pages(): AsyncIterable<{ id: string; location: string; services: string[] }[]>;
  /** Takes reviews out of the staging (a check that could only be made once the file was read failed them). */
  unstage(ids: string[]): Promise<void>;
  /** Applies what is staged in one transaction, with its line in the operator log: all of it or, on error, nothing. */
  apply(options: ApplyOptions, onProgress?: ImportProgress): Promise<ImportSummary>;
}

export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  readonly websub: WebSubStore;
  readonly insights: InsightsStore;
  readonly representations: RepresentationStore;
  /** The operator's commands: one review's state, the log, the store's figures. */
  readonly operator: OperatorStore;
  readonly ledger: LedgerStore;
  /** The revision and the time published data last changed, without reading the data. */
  currentVersion(): Promise<DataVersion>;
  readPublished(): Promise<PublishedData>;
  /**
   * What changed in the published data since `revision`, as a delta against `known` (the ids published at that
   * revision), read in one transaction with the version and business it leads to.
   */
  readChanges(revision: number, known: ReadonlyMap<string, unknown>): Promise<PublishedChanges>;
  readBusiness(): Promise<Business | null>;
  /**
   * Runs `work` with an import staged on one connection (a file's reviews are staged as they are read, in bounded
   * memory); the staging is dropped after, applied or not.
   */
  stageImport<T>(work: (staging: ImportStaging) => Promise<T>): Promise<T>;
  /** Applies the whole plan in one transaction: all of it or, on error, nothing. */
  applyImport(plan: ImportPlan, onProgress?: ImportProgress): Promise<ImportSummary>;
  /** Records an ended MCP session until its expiry (ISO time); expired records are pruned now and then. */
  revokeSession(id: string, expiresAt: string): Promise<void>;
  /** When an ended MCP session would have expired (ISO time), if it was ended and has not expired by `now`. */
  sessionRevokedUntil(id: string, now: string): Promise<string | undefined>;
  /**
   * Calls `listener` soon after the store may have been written, by this process or another, with what changed
   * where the engine says (PostgreSQL's notices do; SQLite's file watch only says `write`): a hint that makes
   * changes show at once, not a promise (callers still poll). Returns the function that stops it.
   */
  watch(listener: (change: StoreChange) => void): () => void;
  close(): Promise<void>;
}

export type SubscriptionState = 'pending' | 'active' | 'rejected' | 'lapsed';

export interface Subscription {
  id: string;
  topic: string;
  callback: string;
  state: SubscriptionState;
  secret: string | null;
  leaseSeconds: number | null;
  /** ISO time the lease ends; null until verified. */
  expiresAt: string | null;
  /** Consecutive failed delivery attempts. */
  failures: number;
  lastDeliveryAt: string | null;
  lastDeliveryResult: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A delivery claimed by one worker until `claimedUntil`: the subscription's current content goes to its callback. */
export interface ClaimedDelivery {
  subscription: Subscription;
  /**
   * The data revision that made this delivery due (the content sent must be at least that new); when settled, the
   * revision of the content the attempt carried, which may be newer.
   */
  revision: number;
}

export type DeliveryOutcome =
  { kind: 'delivered'; status: number } | { kind: 'gone' } | { kind: 'failed'; reason: string };

/** What an attempt led to: done, another try at `retryAt`, or the subscription's removal (and why). */
export type SettleResult =
  { kind: 'delivered' } | { kind: 'retry'; retryAt: string } | { kind: 'removed'; reason: 'failures' | 'gone' };

/** WebSub state: subscriptions, the content each topic last announced, and the delivery outbox. */
export interface WebSubStore {
  /** A subscribe request arrived: a new (or rejected, lapsed) subscription becomes pending; an active one stays active. */
  recordRequest(topic: string, callback: string, now: string, client?: string | null): Promise<Subscription>;
  /** Pending and active subscriptions asked for by this client (its address, an IPv6 one by /64). */
  countByClient(client: string): Promise<number>;
  /** Verification succeeded: active with a fresh lease (and secret), failures reset. */
  activate(
    topic: string,
    callback: string,
    lease: { secret: string | null; leaseSeconds: number; expiresAt: string },
    now: string,
  ): Promise<void>;
  /** Verification failed: a pending subscription becomes rejected; any other state is left as it was. */
  reject(topic: string, callback: string, now: string): Promise<void>;
  /** Unsubscribed, or removed by the hub: the subscription and its pending delivery are deleted. */
  remove(topic: string, callback: string): Promise<void>;
  /** Deletes subscriptions rejected (failed verification) before `before`; returns how many. */
  pruneRejected(before: string): Promise<number>;
  get(topic: string, callback: string): Promise<Subscription | undefined>;
  list(): Promise<Subscription[]>;
  countActive(topic: string): Promise<number>;
  /**
   * Announces a topic's content: if `contentTag` differs from the one last announced, every active, unexpired
   * subscription of the topic gets a due delivery (replacing any pending one). Returns how many were queued.
   */
  announce(topic: string, contentTag: string, revision: number, now: string): Promise<number>;
  /** Claims up to `limit` due deliveries whose revision is at most `maxRevision`, until `claimUntil`. */
  claimDue(limit: number, now: string, claimUntil: string, maxRevision: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt's outcome; `retryDelaysMs[n]` is the wait after the n+1th consecutive failure. */
  settle(
    delivery: ClaimedDelivery,
    outcome: DeliveryOutcome,
    now: string,
    retryDelaysMs: number[],
    maxFailures: number,
  ): Promise<SettleResult>;
  /** Active subscriptions whose lease ended become lapsed, and lose their pending deliveries. Returns how many. */
  lapseExpired(now: string): Promise<number>;
  /** Deletes a subscription's pending delivery, if any. */
  dropDelivery(subscriptionId: string): Promise<void>;
  /** Subscriptions by state and deliveries waiting in the outbox (for metrics). */
  stats(): Promise<{ subscriptions: Record<SubscriptionState, number>; pendingDeliveries: number }>;
  /** When the next delivery falls due (for the worker's timer), or null. */
  nextDueAt(): Promise<string | null>;
}

/** One review's analysis as stored: `inputKey` names what it was computed from (analyzer, catalogue, review content). */
export interface StoredAnalysis {
  reviewId: string;
  inputKey: string;
  /** The analysis, as JSON. */
  analysis: string;
}

/** A complete insights document as stored, with the versions it was computed from. */
export interface StoredInsights {
  /** Fingerprint of the engine (analyzer and aggregation) that built it. */
  engineVersion: string;
  /** `publishedAt` of the data it describes; null for a store that never published anything. */
  asOf: string | null;
  /** When it was built. */
  generatedAt: string;
  /**
   * Its Last-Modified: `asOf`, like every document of that data, unless it replaced another engine's document of
   * the same data (an upgrade), when the bytes changed at its build: then `generatedAt`.
   */
  lastModified: string;
  reviewCount: number;
  /** The document, as JSON. */
  document: string;
  /** Its gzip and brotli copies, made once by the process that built it; null for a body too small to compress. */
  compressed: { gzip: Uint8Array; br: Uint8Array } | null;
}

/** Derived data: analyses and insights documents, built once per version across every process sharing the store. */
export interface InsightsStore {
  /** The stored analyses of these reviews, or of all (the caller checks each `inputKey` against what it would compute now). */
  readAnalyses(reviewIds?: readonly string[]): Promise<StoredAnalysis[]>;
  /** Stores analyses (replacing those of the same reviews) and drops those of `dropped` reviews (no longer published). */
  writeAnalyses(analyses: readonly StoredAnalysis[], dropped: readonly string[], now: string): Promise<void>;
  /** The document one engine version built for one data version, if any. */
  findDocument(engineVersion: string, asOf: string | null): Promise<StoredInsights | undefined>;
  /** Whether any engine stored a document about this data. */
  hasDocumentAbout(asOf: string | null): Promise<boolean>;
  /** The newest complete document (newest data, then newest build), whatever engine built it. */
  latestDocument(): Promise<StoredInsights | undefined>;
  /**
   * Stores a document and removes every document about older data, or built earlier for the same data.
   * Returns false, storing nothing, when a document about newer data is there already.
   */
  saveDocument(document: StoredInsights): Promise<boolean>;
  /** Takes (or renews) the build of `key` until `until`; false while another owner holds an unexpired claim. */
  claimBuild(key: string, owner: string, now: string, until: string): Promise<boolean>;
  releaseBuild(key: string, owner: string): Promise<void>;
}

/** A catalogue document's bytes as one data version's render made them. */
export interface StoredRepresentation {
  /** Its contentTag (the ETag of its identity coding, unquoted). */
  tag: string;
  body: Uint8Array;
}

/**
 * Rendered documents (the reviews dataset, the feeds), stored per data version like the insights, so a restart
 * serves the bytes it had instead of rendering them again; and their compressed copies, once a process made them.
 */
export interface RepresentationStore {
  /**
   * The documents rendered for the data published at `asOf` by the renderer `renderKey` (a fingerprint of the code
   * and the public origin that shape the bytes), by document name.
   */
  find(asOf: string | null, renderKey: string): Promise<Map<string, StoredRepresentation>>;
  /**
   * Stores one version's documents, removing every rendering of older data or of another renderer. Those stored
   * already with the same tag stay as they are, with their copies, unless named in `replace` (stored bytes that did
   * not fit their data). Returns false, storing nothing, when a rendering of newer data is there already.
   */
  save(
    asOf: string | null,
    renderKey: string,
    documents: ReadonlyMap<string, StoredRepresentation>,
    replace?: ReadonlySet<string>,
  ): Promise<boolean>;
  /** A compressed copy of the stored bytes tagged `tag`, if a process made one. */
  findCopy(tag: string, coding: 'gzip' | 'br'): Promise<Uint8Array | undefined>;
  /** Keeps a compressed copy beside the stored bytes tagged `tag` (nothing when those are not stored). */
  saveCopy(tag: string, coding: 'gzip' | 'br', bytes: Uint8Array): Promise<void>;
}
