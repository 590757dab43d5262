// Configuration from the environment: documented defaults, normalised values, and every bad value reported.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const loaded = loadConfig({});
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      baseUrl: 'http://localhost:3000',
      databaseUrl: 'sqlite:data/reviews.db',
      websub: {
        leaseDefaultSeconds: 864000,
        leaseMinSeconds: 3600,
        leaseMaxSeconds: 2592000,
        retryDelaysMs: [60000, 600000],
        timeoutMs: 10000,
        allowPrivateCallbacks: false,
      },
      databasePoolSize: 10,
      mcp: { allowedOrigins: [], sharedSecret: false },
      logLevel: 'info',
    });
    expect(loaded.config.mcp.sessionSecret).toMatch(/^[0-9a-f]{64}$/);
  });

  it('takes the pool size and says whether the MCP session key was given (replicas must share one) or made up', () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: '4', MCP_SESSION_SECRET: 'a-shared-secret-of-replicas' })).toMatchObject({
      ok: true,
      config: { databasePoolSize: 4, mcp: { sessionSecret: 'a-shared-secret-of-replicas', sharedSecret: true } },
    });
  });

  it('derives BASE_URL from PORT and strips a trailing slash from a given one', () => {
    expect(loadConfig({ PORT: '8080' })).toMatchObject({ ok: true, config: { baseUrl: 'http://localhost:8080' } });
    expect(loadConfig({ BASE_URL: 'https://reviews.example.com/' })).toMatchObject({
      ok: true,
      config: { baseUrl: 'https://reviews.example.com' },
    });
  });

  it('normalises MCP_ALLOWED_ORIGINS the way browsers write Origin', () => {
    const loaded = loadConfig({ MCP_ALLOWED_ORIGINS: ' HTTPS://App.Example.com:443/ , http://localhost:5173' });
    expect(loaded).toMatchObject({
      ok: true,
      config: { mcp: { allowedOrigins: ['https://app.example.com', 'http://localhost:5173'] } },
    });
  });

  it('reports every invalid value by name', () => {
    const loaded = loadConfig({
      PORT: 'eighty',
      WEBSUB_RETRY_DELAYS_MS: '1s',
      MCP_ALLOWED_ORIGINS: 'not an origin',
      LOG_LEVEL: 'loud',
      MCP_SESSION_SECRET: 'short',
      DATABASE_POOL_SIZE: '0',
    });
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    const text = loaded.problems.join('\n');
    for (const name of [
      'PORT',
      'WEBSUB_RETRY_DELAYS_MS',
      'MCP_ALLOWED_ORIGINS',
      'LOG_LEVEL',
      'MCP_SESSION_SECRET',
      'DATABASE_POOL_SIZE',
    ])
      expect(text).toContain(name);
  });
});
