/**
 * Traces, end to end: the built binary against mock-api, exporting OTLP over HTTP to a stand-in
 * collector on loopback. A server span per MCP request named and attributed by the MCP semantic
 * conventions, a client span per API request beneath it, the caller's trace continued from
 * params._meta or the HTTP header, and log lines that carry the ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeJob } from '../dataset.js';
import { cleanEnv, connectStdio, startMockApi, type MockApi } from '../helpers.js';
import { MCP_POST_HEADERS, startHttpServer } from '../http-helpers.js';
import { startCollector, type Collector, type OtlpSpan } from './collector.js';

let api: MockApi;
let collector: Collector;
beforeAll(async () => {
  [api, collector] = await Promise.all([startMockApi(), startCollector()]);
});
afterAll(async () => {
  await Promise.all([api?.close(), collector?.close()]);
});

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_ID = 'b7ad6b7169203331';
const traceparent = (traceId = TRACE_ID) => `00-${traceId}-${PARENT_ID}-01`;
// A short batch delay, so spans reach the collector while the test waits on them (no clock is asserted).
const otelEnv = (extra: Record<string, string> = {}) =>
  cleanEnv({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    ...extra,
  });

const named = (spans: OtlpSpan[], name: string, traceId: string) =>
  spans.filter((s) => s.name === name && s.traceId === traceId);
const childrenOf = (spans: OtlpSpan[], parent: OtlpSpan) =>
  spans.filter((s) => s.parentSpanId === parent.spanId && s.traceId === parent.traceId);

describe('traces over stdio (OTLP http/json)', () => {
  it('a tools/call continues the caller trace from params._meta, with a client span per API request and the cache hit marked', async () => {
    const traceId = '1'.repeat(32);
    const session = await connectStdio(
      ['--base-url', api.url],
      otelEnv({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=e2e' }),
    );
    try {
      await session.client.listTools();
      const resource = (await session.client.listResources()).resources[0]!;
      await session.client.readResource({ uri: resource.uri });
      for (let i = 0; i < 2; i++)
        await session.client.callTool({
          name: 'get_job',
          arguments: { job_id: activeJob.job_id },
          _meta: { traceparent: traceparent(traceId) },
        });
      const spans = await collector.until(
        (all) =>
          named(all, 'tools/call get_job', traceId).length === 2 &&
          all.some((s) => s.name === 'tools/list') &&
          all.some((s) => s.name === 'resources/read') &&
          all.filter((s) => s.traceId === traceId && s.kind === 3).length >= 2,
      );
      const [first, second] = named(spans, 'tools/call get_job', traceId);
      expect(first!.parentSpanId).toBe(PARENT_ID);
      expect(first!.kind).toBe(2); // SERVER
      expect(first!.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'get_job',
        'jsonrpc.request.id': expect.any(String),
        'network.transport': 'pipe',
        'mcp.protocol.version': expect.any(String),
      });
      expect(first!.attributes['error.type']).toBeUndefined();
      expect(first!.resource).toMatchObject({ 'service.name': 'service-mcp', 'deployment.environment.name': 'e2e' });
      const jobRequest = (server: OtlpSpan) =>
        childrenOf(spans, server).find((s) => String(s.attributes['url.full']).endsWith(`/jobs/${activeJob.job_id}`));
      const firstGet = jobRequest(first!);
      const secondGet = jobRequest(second!);
      expect(firstGet).toMatchObject({
        name: 'GET',
        kind: 3,
        attributes: {
          'http.request.method': 'GET',
          'server.address': '127.0.0.1',
          'http.response.status_code': 200,
          'service_mcp.cache.hit': false,
        },
      });
      expect(secondGet?.attributes['service_mcp.cache.hit']).toBe(true);
      expect(spans.find((s) => s.name === 'tools/list')?.attributes).toMatchObject({
        'mcp.method.name': 'tools/list',
        'network.transport': 'pipe',
      });
      expect(
        spans.find((s) => s.name === 'resources/read' && s.attributes['mcp.resource.uri'] === resource.uri)?.attributes,
      ).toMatchObject({ 'mcp.method.name': 'resources/read' });
    } finally {
      await session.close();
    }
  });

  it('a bridged call is a server span named for its tool, with a POST client span to the hosted surface beneath it', async () => {
    const traceId = '4'.repeat(32);
    const session = await connectStdio(['--base-url', api.url], otelEnv({ SERVICE_MCP_NO_BRIDGE: '0' }));
    try {
      // Asked again until the bridged tools are in (the first list waits for the hosted one only 1.5 s).
      while (!(await session.client.listTools()).tools.some((tool) => tool.name === 'get_company_funding'))
        await new Promise((resolve) => setTimeout(resolve, 100));
      await session.client.callTool({
        name: 'get_company_funding',
        arguments: { company: 'quillmark' },
        _meta: { traceparent: traceparent(traceId) },
      });
      const spans = await collector.until((all) => named(all, 'tools/call get_company_funding', traceId).length === 1);
      const [server] = named(spans, 'tools/call get_company_funding', traceId);
      expect(server!.attributes).toMatchObject({ 'gen_ai.tool.name': 'get_company_funding' });
      const posts = await collector.until((all) => childrenOf(all, server!).length > 0);
      expect(childrenOf(posts, server!)).toEqual([
        expect.objectContaining({
          name: 'POST',
          kind: 3,
          attributes: expect.objectContaining({
            'http.request.method': 'POST',
            'service_mcp.operation': 'hosted_mcp',
            'http.response.status_code': 200,
            'url.full': `${api.url}/api/public/v1/mcp?surface=market`,
          }),
        }),
      ]);
    } finally {
      await session.close();
    }
  });

  it('a failed call carries error.type with the error kind; a Retry-After wait is an event with its seconds; json log lines carry the ids', async () => {
    const traceId = '2'.repeat(32);
    const waitId = '3'.repeat(32);
    const session = await connectStdio(
      ['--base-url', api.url, '--log-format', 'json', '--log-level', 'info'],
      otelEnv(),
    );
    try {
      const failed = await session.client.callTool({
        name: 'get_job',
        arguments: { job_id: 'job_absent_0000' },
        _meta: { traceparent: traceparent(traceId) },
      });
      expect(failed.isError).toBe(true);
      await api.setFaults([{ path: '/api/public/v1/market-map', kind: 'rate_limit', retryAfter: 1, times: 1 }]);
      await session.client.callTool({
        name: 'get_market_map',
        arguments: {},
        _meta: { traceparent: traceparent(waitId) },
      });
      await api.clearFaults();
      const spans = await collector.until(
        (all) =>
          named(all, 'tools/call get_job', traceId).length === 1 &&
          named(all, 'tools/call get_market_map', waitId).length === 1,
      );
      const failure = named(spans, 'tools/call get_job', traceId)[0]!;
      expect(failure.attributes['error.type']).toBe('not_found');
      expect(failure.status.code).toBe(2); // ERROR
      const waited = named(spans, 'tools/call get_market_map', waitId)[0]!;
      expect(waited.events).toContainEqual({
        name: 'service_mcp.retry_after.wait',
        attributes: { 'service_mcp.retry_after.seconds': 1 },
      });
      const rateLimited = childrenOf(spans, waited).find((s) => s.attributes['http.response.status_code'] === 429);
      expect(rateLimited?.attributes['error.type']).toBe('429');
      const lines = session
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines)
        expect(line).toMatchObject({
          time: expect.any(String),
          level: expect.any(String),
          message: expect.any(String),
        });
      expect(lines.find((line) => String(line.message).startsWith('get_job failed'))).toMatchObject({
        trace_id: traceId,
        span_id: failure.spanId,
      });
    } finally {
      await session.client.close();
    }
  });
});

describe('traces over HTTP (OTLP http/protobuf)', () => {
  it('the traceparent header continues the caller trace, exported as protobuf', async () => {
    const server = await startHttpServer(
      ['--base-url', api.url],
      otelEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }),
    );
    try {
      const traceId = '4'.repeat(32);
      const before = collector.posts.length;
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { ...MCP_POST_HEADERS, 'mcp-protocol-version': '2025-06-18', traceparent: traceparent(traceId) },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'get_job', arguments: { job_id: activeJob.job_id } },
        }),
      });
      expect(response.status).toBe(200);
      await response.text();
      const traceBytes = Buffer.from(traceId, 'hex');
      // Protobuf is not decoded here: the batch arrives with its content type and the caller's trace id in it.
      // The API request's spans end before the server span, so a 50 ms batch can close between them
      // on a loaded machine: wait for the batch that holds the server span.
      const serverSpan = Buffer.from('tools/call get_job');
      const post = await collector.untilPost((p) => p.body.includes(traceBytes) && p.body.includes(serverSpan), before);
      expect(post.path).toBe('/v1/traces');
      expect(post.contentType).toBe('application/x-protobuf');
      expect(post.body.includes(Buffer.from(PARENT_ID, 'hex'))).toBe(true);
    } finally {
      await server.stop();
    }
  });
});

describe('traces at the end of a stdio session', () => {
  it('the spans still batched are exported before the process exits', async () => {
    const traceId = '5'.repeat(32);
    // A batch delay far longer than the session: only the flush at close can send the span.
    const session = await connectStdio(['--base-url', api.url], otelEnv({ OTEL_BSP_SCHEDULE_DELAY: '600000' }));
    await session.client.callTool({
      name: 'get_job',
      arguments: { job_id: activeJob.job_id },
      _meta: { traceparent: traceparent(traceId) },
    });
    const exited = new Promise<void>((done) => (session.transport.onclose = () => done()));
    await session.close();
    await exited;
    const spans = await collector.until((all) => named(all, 'tools/call get_job', traceId).length === 1);
    expect(named(spans, 'tools/call get_job', traceId)[0]!.parentSpanId).toBe(PARENT_ID);
  });
});

describe('traces when serve --http stops', () => {
  it('the spans still batched are exported before the process exits on SIGTERM', async () => {
    const traceId = '6'.repeat(32);
    // A batch delay far longer than the test: only the flush on stop can send the span.
    const server = await startHttpServer(['--base-url', api.url], otelEnv({ OTEL_BSP_SCHEDULE_DELAY: '600000' }));
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'mcp-protocol-version': '2025-06-18', traceparent: traceparent(traceId) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'get_job', arguments: { job_id: activeJob.job_id } },
      }),
    });
    await response.text();
    expect(await server.stop('SIGTERM')).toBe(0);
    const spans = await collector.until((all) => named(all, 'tools/call get_job', traceId).length === 1);
    expect(named(spans, 'tools/call get_job', traceId)[0]!.parentSpanId).toBe(PARENT_ID);
  });
});
