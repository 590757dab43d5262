// The request metrics the service keeps itself are written as prom-client wrote them: the same observations give
// the same text, line for line, so dashboards and alerts read them as before.
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestMetrics } from '../src/http/request-metrics.js';

/** What the service registered with prom-client before it kept these metrics itself. */
function promClientMetrics() {
  const registry = new Registry();
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to response, by method and route',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  return {
    record(method: string, route: string, status: number, seconds: number) {
      requests.labels({ method, route, status: String(status) }).inc();
      latency.labels({ method, route }).observe(seconds);
    },
    text: () => registry.metrics(),
  };
}

/** Requests of several routes and statuses, latencies in every bucket and beyond the last; routes that need escaping. */
const OBSERVATIONS: [method: string, route: string, status: number, seconds: number][] = [
  ['GET', '/reviews.json', 200, 0.0123],
  ['GET', '/reviews.json', 304, 0.0004],
  ['HEAD', '/reviews.json', 304, 0.001],
  ['GET', '/api/reviews/since/:date', 200, 0.0049],
  ['GET', '/reviews.json', 304, 0.0002],
  ['GET', 'unmatched', 404, 0.07],
  ['POST', '/mcp', 200, 0.3],
  ['POST', '/mcp', 429, 0.8],
  ['POST', '/mcp', 200, 4.2],
  ['GET', '/reviews.json', 200, 7.5],
  ['GET', 'a "quoted" \\ route\nwith a line break', 200, 0.02],
];

describe('request metrics', () => {
  it('are written as prom-client wrote them, line for line', async () => {
    const ours = new RequestMetrics();
    const theirs = promClientMetrics();
    for (const [method, route, status, seconds] of OBSERVATIONS) {
      ours.series(method, route).record(status, seconds);
      theirs.record(method, route, status, seconds);
    }
    expect(`${ours.exposition()}\n`).toBe(await theirs.text());
  });

  it('list nothing but their headers before the first request, even for a series looked up in advance', async () => {
    const ours = new RequestMetrics();
    ours.series('GET', '/reviews.json');
    expect(`${ours.exposition()}\n`).toBe(await promClientMetrics().text());
  });
});
