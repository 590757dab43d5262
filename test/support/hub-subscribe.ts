// Helpers for WebSub hub tests: form-encoded hub requests, polling a condition with a deadline, and review records to import.
import type { ImportedReview } from '../../src/reviews/schemas.js';

export interface HubAnswer {
  status: number;
  contentType: string | null;
  text: string;
}

/** POSTs a form-encoded request to the hub of the service at `baseUrl`, as a subscriber would. */
export async function hubRequest(baseUrl: string, fields: Record<string, string>): Promise<HubAnswer> {
  const response = await fetch(`${baseUrl}/api/websub/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

/** Subscribes `callback` to the topic `{baseUrl}{topicPath}`. */
export function subscribe(baseUrl: string, topicPath: string, callback: string, extra: Record<string, string> = {}): Promise<HubAnswer> {
  return hubRequest(baseUrl, { 'hub.mode': 'subscribe', 'hub.topic': `${baseUrl}${topicPath}`, 'hub.callback': callback, ...extra });
}

/** Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs` naming `what`. */
export async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs: number, what: string | (() => string)): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A verified review record for an import. */
export function verifiedReview(id: string, date = '2026-01-15'): ImportedReview {
  return { id, date, rating: 5, text: `Review ${id}: the technician fixed the AC the same day.`, author: 'Test A.', technicians: [], services: [], verified: true };
}
