import { it } from 'vitest';
import { mcpRequest, openSession, rpc, initializeRequest } from './support/mcp-wire.js';
import { startServer, tempDir } from './support/server.js';
it('probe', async () => {
  const dir = tempDir();
  const server = await startServer(`${dir.path}/p.db`);
  const show = (l: string, r: { status: number; text: string; headers: Headers }) => console.log(l, r.status, r.headers.get('content-type'), r.text.slice(0, 300));
  const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { accept: 'application/json, text/event-stream' }, body: JSON.stringify(initializeRequest('2025-06-18')) });
  console.log('no ct', res.status, await res.text());
  show('init no params', await mcpRequest(server.url, { body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} } }));
  show('batch init', await mcpRequest(server.url, { body: [initializeRequest('2025-06-18')] }));
  show('batch init x2', await mcpRequest(server.url, { body: [initializeRequest('2025-06-18'), rpc('ping')] }));
  const s = await openSession(server.url);
  show('batch 2 req', await mcpRequest(server.url, { sessionId: s.sessionId, body: [rpc('ping'), rpc('tools/list')] }));
  show('init with session', await mcpRequest(server.url, { sessionId: s.sessionId, body: initializeRequest('2025-06-18') }));
  show('tools/call no params', await mcpRequest(server.url, { sessionId: s.sessionId, body: rpc('tools/call') }));
  show('resources/templates', await mcpRequest(server.url, { sessionId: s.sessionId, body: rpc('resources/templates/list') }));
  show('logging', await mcpRequest(server.url, { sessionId: s.sessionId, body: rpc('logging/setLevel', { level: 'info' }) }));
  const r = await mcpRequest(server.url, { headers: { origin: server.url }, body: initializeRequest('2025-06-18') });
  console.log([...r.headers.entries()]);
  const big = await mcpRequest(server.url, { sessionId: s.sessionId, body: rpc('tools/call', { name: 'search_reviews', arguments: { query: 'x'.repeat(70000) } }) });
  show('big', big);
  const d = await mcpRequest(server.url, { method: 'DELETE', sessionId: s.sessionId, headers: { 'content-type': 'application/json' }, body: '{}' });
  show('delete w body', d);
  // race: delete then immediately hammer
  let bad = 0;
  for (let i = 0; i < 300; i++) {
    const t = await openSession(server.url);
    await mcpRequest(server.url, { method: 'DELETE', sessionId: t.sessionId });
    for (let k = 0; k < 3; k++) { const x = await mcpRequest(server.url, { sessionId: t.sessionId, body: rpc('ping') }); if (x.status !== 404) bad++; }
  }
  console.log('race bad', bad);
  await server.close(); dir.remove();
});
