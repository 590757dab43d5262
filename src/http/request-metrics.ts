// http_requests_total and http_request_duration_seconds, by method and route (the route's template): a request adds
// to plain numbers of its series, and a scrape writes them in Prometheus's text format, line for line as prom-client
// wrote them. prom-client builds a label hash (strings) and looks it up on every inc and observe, even through
// labels() children: allocations and string-table lookups on the path of every answer, a 304's included.

const REQUESTS = { name: 'http_requests_total', help: 'HTTP requests answered, by method, route and status' } as const;
const LATENCY = {
  name: 'http_request_duration_seconds',
  help: 'Time from request to response, by method and route',
} as const;
/** Upper bounds of the latency buckets, seconds. */
const BOUNDS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5] as const;

/** Prometheus's escaping of a label value (prom-client's, so the text does not change). */
const labelValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

interface StatusCount {
  readonly labels: string;
  n: number;
}

/** What a scrape lists, each in the order of its first request (prom-client's order). */
interface Listing {
  readonly counts: StatusCount[];
  /** Series with an observation: one nobody asked for is not listed. */
  readonly observed: RouteSeries[];
}

/** The requests of one method and route: how many were answered with each status, and how long they took. */
export class RouteSeries {
  private readonly statuses = new Map<number, StatusCount>();
  /** Observations per bucket, not cumulative; one over the last bound is only in the count. */
  private readonly buckets: number[] = BOUNDS.map(() => 0);
  private sum = 0;
  private count = 0;
  /** `method="…",route="…"`, escaped once. */
  private readonly labels: string;

  constructor(
    private readonly listing: Listing,
    method: string,
    route: string,
  ) {
    this.labels = `method="${labelValue(method)}",route="${labelValue(route)}"`;
  }

  /** Counts one answer with this status, which took `seconds`. */
  record(status: number, seconds: number): void {
    let counted = this.statuses.get(status);
    if (!counted) {
      counted = { labels: `${this.labels},status="${status}"`, n: 0 };
      this.statuses.set(status, counted);
      this.listing.counts.push(counted);
    }
    counted.n++;
    if (this.count === 0) this.listing.observed.push(this);
    for (let i = 0; i < BOUNDS.length; i++) {
      if (seconds <= BOUNDS[i]!) {
        this.buckets[i]!++;
        break;
      }
    }
    this.sum += seconds;
    this.count++;
  }

  /** The histogram's lines of this series: cumulative buckets, then sum and count. */
  histogramLines(lines: string[]): void {
    let cumulative = 0;
    BOUNDS.forEach((bound, i) => {
      cumulative += this.buckets[i]!;
      lines.push(`${LATENCY.name}_bucket{le="${bound}",${this.labels}} ${cumulative}`);
    });
    lines.push(`${LATENCY.name}_bucket{le="+Inf",${this.labels}} ${this.count}`);
    lines.push(`${LATENCY.name}_sum{${this.labels}} ${this.sum}`);
    lines.push(`${LATENCY.name}_count{${this.labels}} ${this.count}`);
  }
}

export class RequestMetrics {
  private readonly byMethod = new Map<string, Map<string, RouteSeries>>();
  private readonly listing: Listing = { counts: [], observed: [] };

  /** The series of a method and route; a caller that answers many requests of it may keep it. */
  series(method: string, route: string): RouteSeries {
    let byRoute = this.byMethod.get(method);
    if (!byRoute) this.byMethod.set(method, (byRoute = new Map()));
    let series = byRoute.get(route);
    if (!series) byRoute.set(route, (series = new RouteSeries(this.listing, method, route)));
    return series;
  }

  /** Both metrics in Prometheus's text format, a blank line between them, without a trailing newline. */
  exposition(): string {
    const lines = [`# HELP ${REQUESTS.name} ${REQUESTS.help}`, `# TYPE ${REQUESTS.name} counter`];
    for (const { labels, n } of this.listing.counts) lines.push(`${REQUESTS.name}{${labels}} ${n}`);
    lines.push('', `# HELP ${LATENCY.name} ${LATENCY.help}`, `# TYPE ${LATENCY.name} histogram`);
    for (const series of this.listing.observed) series.histogramLines(lines);
    return lines.join('\n');
  }
}
