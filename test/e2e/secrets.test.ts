/**
 * No token or secret ever appears in a URL, a request header, a log line, a notification or a
 * result: the binary runs with secret-looking variables in its environment, at --log-level debug,
 * through successes and every error kind, over both transports; then with credentials in the base
 * URL and in the proxy URL, which must be refused or fail without echoing them; and a caller's
 * bearer token in HTTP mode, which goes no further than the check at the door.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeJob, company, inactiveJob } from './dataset.js';
import { cleanEnv, closedPort, runCli } from './helpers.js';
import { startRecordingApi, type RecordingApi } from './recording-api.js';
import { startTarget, TRANSPORTS } from './targets.js';
import { startHttpServer } from './http-helpers.js';

const SECRET = `sk-live-${randomBytes(12).toString('hex')}`;
const PROXY_PASSWORD = `proxy-${randomBytes(12).toString('hex')}`;
/** Variables a developer's shell may well hold; none is the server's to send anywhere. */
const SECRET_ENV = {
  SERVICE_MCP_API_TOKEN: SECRET,
  SERVICE_MCP_TOKEN: SECRET,
  GITHUB_TOKEN: SECRET,
  OPENAI_API_KEY: SECRET,
  AWS_SECRET_ACCESS_KEY: SECRET,
};

let api: RecordingApi;
beforeAll(async () => {
  api = await startRecordingApi();
});
afterAll(() => api?.close());

const leaks = (text: string) => [SECRET, PROXY_PASSWORD].filter((secret) => text.includes(secret));

describe.each(TRANSPORTS)('secrets in the environment, over %s', (transport) => {
  it('appear in no request, log line, notification or result, whatever the outcome', async () => {
    const target = await startTarget(
      transport,
      ['--base-url', api.url, '--no-cache', '--timeout-ms', '1000', '--max-retry-wait-s', '0', '--log-level', 'debug'],
      cleanEnv(SECRET_ENV),
    );
    const seenBefore = api.seen.length;
    const transcript: unknown[] = [];
    target.client.setNotificationHandler('notifications/message', (n) => void transcript.push(n.params));
    try {
      if (transport === 'stdio') await target.client.setLoggingLevel('debug');
      const call = async (name: string, args: Record<string, unknown> = {}) =>
        transcript.push(await target.client.callTool({ name, arguments: args }));
      await call('search_jobs', { q: 'engineer', per_page: 2 });
      await call('list_jobs', { per_page: 2 });
      await call('get_job', { job_id: activeJob.job_id });
      await call('get_job', { job_id: inactiveJob.job_id });
      await call('get_market_map');
      await call('get_company_interview_brief', { slug: company.slug });
      await call('discover_api');
      await call('check_api_health');
      for (const kind of ['unavailable', 'contract', 'malformed', 'hang', 'reset', 'rate_limit']) {
        api.engine.faults.set([{ path: '/api/public/v1/jobs', kind: kind as 'hang', retryAfter: 30 }]);
        await call('list_jobs', { page: 2 });
      }
      api.engine.faults.clear();
      expect(JSON.stringify(transcript)).toMatch(/rate_limited: .*30s/); // every outcome was reached
    } finally {
      api.engine.faults.clear();
      await target.close();
    }
    const requests = api.seen.slice(seenBefore);
    expect(requests.length).toBeGreaterThan(10);
    expect(leaks(JSON.stringify(requests))).toEqual([]);
    expect(requests.every((r) => r.headers.authorization === undefined && r.headers.cookie === undefined)).toBe(true);
    expect(leaks(target.stderr())).toEqual([]);
    expect(target.stderr()).toMatch(/debug: GET \/api\/public\/v1/);
    expect(leaks(JSON.stringify(transcript))).toEqual([]);
  });
});

describe('credentials given where they do not belong', () => {
  it('a base URL carrying them is refused without echoing them, as a flag or from the environment', async () => {
    const withPassword = `http://user:${SECRET}@127.0.0.1:1`;
    const runs = [
      await runCli(['--base-url', withPassword, 'call', 'discover_api']),
      await runCli(['call', 'discover_api'], cleanEnv({ SERVICE_MCP_BASE_URL: withPassword })),
      await runCli(['--base-url', `http://127.0.0.1:1/?token=${SECRET}`, 'call', 'discover_api']),
      await runCli(['serve', '--http', '--port', '0', '--base-url', withPassword]),
      await runCli(['--log-level', 'debug'], cleanEnv({ SERVICE_MCP_BASE_URL: withPassword })),
    ];
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /--base-url \/ SERVICE_MCP_BASE_URL: .* must not (carry credentials|have a query string)/,
      );
      expect(leaks(run.stdout + run.stderr)).toEqual([]);
    }
  });

  it('a proxy URL with a password fails as network without echoing it', async () => {
    const proxy = `http://user:${PROXY_PASSWORD}@127.0.0.1:${await closedPort()}`;
    const run = await runCli(
      ['--base-url', api.url, '--log-level', 'debug', 'call', 'discover_api', '--json'],
      cleanEnv({ HTTP_PROXY: proxy, HTTPS_PROXY: proxy, ...SECRET_ENV }),
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).content[0].text).toMatch(/^network: GET \/api\/public\/v1 failed: .*ECONNREFUSED/);
    expect(leaks(run.stdout + run.stderr)).toEqual([]);
  });
});

describe('a bearer token of serve --http', () => {
  it('reaches no upstream request, log line, result or error, whatever the outcome', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'service-mcp-secrets-')), 'tokens');
    writeFileSync(file, `team:${SECRET}\n`);
    const server = await startHttpServer(
      [
        '--base-url',
        api.url,
        '--auth-tokens-file',
        file,
        '--no-cache',
        '--max-retry-wait-s',
        '0',
        '--log-level',
        'debug',
      ],
      cleanEnv(),
    );
    const seenBefore = api.seen.length;
    const transcript: unknown[] = [];
    const client = new Client({ name: 'secrets', version: '0' }, { capabilities: {} });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${SECRET}` } },
        }),
      );
      transcript.push(await client.callTool({ name: 'get_job', arguments: { job_id: activeJob.job_id } }));
      transcript.push(await client.callTool({ name: 'get_job', arguments: { job_id: inactiveJob.job_id } }));
      transcript.push(await client.callTool({ name: 'check_api_health', arguments: {} }));
      api.engine.faults.set([{ path: '/api/public/v1/jobs', kind: 'rate_limit', retryAfter: 30 }]);
      transcript.push(await client.callTool({ name: 'list_jobs', arguments: {} }));
    } finally {
      api.engine.faults.clear();
      await client.close().catch(() => {});
      await server.stop();
    }
    const requests = api.seen.slice(seenBefore);
    expect(requests.length).toBeGreaterThan(2);
    expect(leaks(JSON.stringify(requests))).toEqual([]);
    expect(requests.every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(leaks(server.stderr() + server.stdout())).toEqual([]);
    expect(server.stderr()).toMatch(/caller token:team/);
    expect(leaks(JSON.stringify(transcript))).toEqual([]);
    expect(JSON.stringify(transcript)).toMatch(/rate_limited: .*30/);
  });
});
