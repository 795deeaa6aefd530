/**
 * A stand-in OTLP/HTTP collector on loopback: it records every body posted to /v1/traces, with its
 * content type, and reads the http/json ones into spans.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  status: { code?: number };
  resource: Record<string, unknown>;
}

export interface Collector {
  url: string;
  posts: Array<{ path: string; contentType: string; body: Buffer }>;
  /** Every span posted as http/json so far. */
  spans(): OtlpSpan[];
  /** Resolves once `ready` holds for the spans posted, checked on each post. */
  until(ready: (spans: OtlpSpan[]) => boolean): Promise<OtlpSpan[]>;
  /** Resolves with the first post from index `from` on that `matches`, checked on each post. */
  untilPost(matches: (post: Collector['posts'][number]) => boolean, from?: number): Promise<Collector['posts'][number]>;
  close(): Promise<void>;
}

type KeyValue = { key: string; value: Record<string, unknown> };
const valueOf = (value: Record<string, unknown>): unknown => {
  if ('stringValue' in value) return value.stringValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('boolValue' in value) return value.boolValue;
  if ('doubleValue' in value) return value.doubleValue;
  return value;
};
const attributesOf = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

export function startCollector(): Promise<Collector> {
  const posts: Collector['posts'] = [];
  const waiters = new Set<() => void>();
  const spans = (): OtlpSpan[] =>
    posts
      .filter((post) => post.contentType.startsWith('application/json'))
      .flatMap((post) => {
        const body = JSON.parse(post.body.toString('utf8')) as {
          resourceSpans: Array<{
            resource: { attributes: KeyValue[] };
            scopeSpans: Array<{ spans: Array<Record<string, unknown>> }>;
          }>;
        };
        return body.resourceSpans.flatMap((rs) =>
          rs.scopeSpans.flatMap((ss) =>
            ss.spans.map((span) => ({
              ...(span as unknown as OtlpSpan),
              attributes: attributesOf(span.attributes as KeyValue[]),
              events: ((span.events as Array<{ name: string; attributes: KeyValue[] }>) ?? []).map((e) => ({
                name: e.name,
                attributes: attributesOf(e.attributes),
              })),
              resource: attributesOf(rs.resource.attributes),
            })),
          ),
        );
      });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
      res
        .writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' })
        .end(req.headers['content-type']?.includes('json') ? '{}' : '');
      for (const wake of waiters) wake();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        posts,
        spans,
        until: (ready) =>
          new Promise((done) => {
            const check = () => {
              const now = spans();
              if (!ready(now)) return;
              waiters.delete(check);
              done(now);
            };
            waiters.add(check);
            check();
          }),
        untilPost: (matches, from = 0) =>
          new Promise((done) => {
            const check = () => {
              const post = posts.slice(from).find(matches);
              if (!post) return;
              waiters.delete(check);
              done(post);
            };
            waiters.add(check);
            check();
          }),
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
