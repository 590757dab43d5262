// Hub requests as a WebSub subscriber sends them: form-encoded POSTs to a service's hub, and what the hub answered.

export interface HubAnswer {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  allow: string | null;
  text: string;
}

/** The service whose hub is asked: its base URL, or a running server. */
export type HubOf = string | { url: string };

const baseUrlOf = (service: HubOf): string => (typeof service === 'string' ? service : service.url);

/** POSTs a form-encoded request to the hub of `service`, as a subscriber would (or a raw body with its Content-Type). */
export async function hubRequest(
  service: HubOf,
  fields: Record<string, string>,
  raw?: { contentType: string; body: string },
): Promise<HubAnswer> {
  const response = await fetch(`${baseUrlOf(service)}/api/websub/hub`, {
    method: 'POST',
    ...(raw
      ? { headers: { 'content-type': raw.contentType }, body: raw.body }
      : {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        }),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    retryAfter: response.headers.get('retry-after'),
    allow: response.headers.get('allow'),
    text: await response.text(),
  };
}

/** A topic as an absolute URL, or as a path on the service (`/reviews.json`). */
const topicUrl = (service: HubOf, topic: string): string =>
  topic.startsWith('/') ? `${baseUrlOf(service)}${topic}` : topic;

/** Subscribes `callback` to `topic` (a URL, or a path on the service); `extra` adds or overrides hub.* fields. */
export function subscribe(
  service: HubOf,
  topic: string,
  callback: string,
  extra: Record<string, string> = {},
): Promise<HubAnswer> {
  return hubRequest(service, {
    'hub.mode': 'subscribe',
    'hub.topic': topicUrl(service, topic),
    'hub.callback': callback,
    ...extra,
  });
}

export function unsubscribe(service: HubOf, topic: string, callback: string): Promise<HubAnswer> {
  return hubRequest(service, {
    'hub.mode': 'unsubscribe',
    'hub.topic': topicUrl(service, topic),
    'hub.callback': callback,
  });
}
