/**
 * The bridge: an SDK v2 client inside our server, reading the deployment's hosted market surface in
 * whichever era it speaks, through guarded-fetch.ts. It starts from the list the build or an earlier
 * run left (kept-list.ts), keeps each list for LIST_TTL_MS from its read (in Redis too, so replicas
 * read it once), and tells its listeners when the bridged tools change. A surface that fails leaves
 * ours untouched: the list is simply empty, or the last one, and status() says why.
 */
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { CallOptions } from '../api/send-loop.js';
import { silentLogger, type Logger } from '../obs/log.js';
import { orAfter } from '../lib/abort.js';
import { oneLine } from '../lib/text.js';
import type { ErrorKind } from '../contract/errors.js';
import type { ServerState } from '../contract/server-state.js';
import { admitTools, type Admission, type HostedTool } from './admit.js';
import { LIST_RETRY_MS, LIST_TTL_MS } from './caps.js';
import { guardedFetch, withCallOptions, type GuardedFetchOptions, type WebFetch } from './guarded-fetch.js';
import { parseListing, type ListFile, type Listing, type ListSource, type SharedListStore } from './kept-list.js';

/**
 * The SDK's client (open-client.ts), and outcome.ts (which reads the client's error classes), are
 * loaded at the first read or failure, not at start: with --no-bridge neither is ever evaluated.
 */
const outcome = () => import('./outcome.js');

export interface HostedBridgeOptions extends Omit<GuardedFetchOptions, 'fetch' | 'label'> {
  /** The endpoint to read: the health response's mcp_endpoint, else the base URL's hosted path. */
  endpoint: () => Promise<{ url: string; note?: string }>;
  fetch: () => Promise<WebFetch>;
  /** Our own tool names: they win a collision. */
  ours: ReadonlySet<string>;
  logger?: Logger;
  store?: SharedListStore | undefined;
  /** The list file of an earlier run, read at start and written after each read. */
  file?: ListFile | undefined;
  /** The surface's list as the build read it (the offline deployment's, fixed for a build): never read again unless a call finds it wrong. */
  built?: readonly unknown[] | undefined;
  now?: () => number;
}

export interface HostedAnswer {
  result: CallToolResult;
  endpoint: string;
  retrievedAt: string;
}

interface Connection {
  client: Client;
  url: string;
}

export class HostedBridge {
  private admission: Admission = { tools: [], skipped: [] };
  private readonly now: () => number;
  private readonly logger: Logger;
  private readonly listeners = new Set<() => void>();
  private connection: Promise<Connection> | undefined;
  private reading: Promise<void> | undefined;
  private first: Promise<void> | undefined;
  /** Where the list in hand came from and when it was read (none for the build's); until when it is fresh. */
  private from: ListSource | undefined;
  private readAt: number | undefined;
  private freshUntil = 0;
  /** The last read's failure, and when (epoch ms); cleared by a read that succeeds. */
  private failure: { kind: ErrorKind; message: string; at: number } | undefined;
  private endpointUrl: string | undefined;
  private endpointNote: string | undefined;
  private era: string | undefined;

  constructor(private readonly options: HostedBridgeOptions) {
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? silentLogger;
    // The build's list, else an earlier run's: offered at once, read again when due.
    const kept = options.built ? { tools: [...options.built], at: this.now() } : options.file?.read();
    if (kept) this.take(kept, options.built ? 'build' : 'earlier_run');
  }

  /** Starts the first read (a server calls it at start, so its first tools/list seldom waits). */
  start(): void {
    this.refreshIfDue();
  }

  /** The bridged tools as last read; starts a new read when the list is due. */
  tools(): readonly HostedTool[] {
    this.refreshIfDue();
    return this.admission.tools;
  }

  /** Resolves once a list is in hand or the first read has failed, or after `ms`, whichever is first; never rejects. */
  async settled(ms: number): Promise<void> {
    this.refreshIfDue();
    if (this.from !== undefined || this.failure !== undefined) return;
    await orAfter(this.first ?? Promise.resolve(), ms, undefined);
  }

  /** How long the list offered holds: until its next read is due (0 while a first or overdue read is under way). */
  holdsForMs(): number {
    const due = this.failure !== undefined ? this.failure.at + LIST_RETRY_MS : this.freshUntil;
    return Math.max(0, Math.min(due - this.now(), LIST_TTL_MS));
  }

  /** Told each time the set of bridged tools (names or definitions) changes. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(): ServerState['bridge'] {
    const { failure, readAt } = this;
    // A failed read stays the news while the next one runs: "being read" alone would hide it.
    const state = failure ? 'failed' : this.from !== undefined ? 'ready' : this.reading ? 'reading' : 'not_read';
    return {
      endpoint: this.endpointUrl,
      endpoint_note: this.endpointNote,
      state,
      era: this.era,
      list_from: this.from,
      read_at: readAt === undefined ? undefined : new Date(readAt).toISOString(),
      failure: failure?.message,
      // When, why, and whether a read runs now or when one is due (the next list or health check starts it).
      ...(failure && {
        failed_at: new Date(failure.at).toISOString(),
        failed_age_s: Math.max(0, Math.round((this.now() - failure.at) / 1000)),
        failure_kind: failure.kind,
        ...(this.reading ? { retrying: true } : { next_read_at: new Date(failure.at + LIST_RETRY_MS).toISOString() }),
      }),
      bridged: this.admission.tools.map((tool) => tool.name),
      skipped: this.admission.skipped,
    };
  }

  /** Calls a bridged tool; throws an ApiError (outcome.ts) when the exchange fails. */
  async call(tool: HostedTool, args: unknown, options: CallOptions): Promise<HostedAnswer> {
    try {
      // Inside: a surface that cannot be reached at all is a failure of this call like any other.
      const { client, url } = await this.connect();
      const result = await withCallOptions(options, () =>
        client.callTool(
          { name: tool.name, arguments: args as Record<string, unknown> },
          { signal: options.signal, timeout: this.callTimeoutMs() },
        ),
      );
      return { result: result as CallToolResult, endpoint: url, retrievedAt: new Date(this.now()).toISOString() };
    } catch (error) {
      const failure = (await outcome()).failureOf(error, `tools/call ${tool.name}`, options.signal);
      // A tool the surface no longer knows, or a connection that broke: the next call reconnects and relists.
      if (failure.kind !== 'invalid_argument' && failure.kind !== 'cancelled' && failure.kind !== 'rate_limited')
        this.drop();
      if (failure.kind === 'not_deployed') this.freshUntil = 0;
      throw failure;
    }
  }

  private callTimeoutMs(): number {
    // The transport's own deadline and Retry-After waits end a call first; this only backs them up.
    return this.options.timeoutMs * 2 + this.options.maxRetryWaitS * 1000 + 5_000;
  }

  private refreshIfDue(): void {
    if (this.reading) return;
    const due =
      this.failure !== undefined ? this.now() - this.failure.at >= LIST_RETRY_MS : this.now() >= this.freshUntil;
    if (!due) return;
    this.reading = this.read().finally(() => (this.reading = undefined));
    this.first ??= this.reading;
  }

  private take(listing: Listing, from: ListSource): void {
    this.apply(admitTools(listing.tools, this.options.ours, from === 'build' || from === 'earlier_run'));
    this.from = from;
    this.readAt = from === 'build' ? undefined : listing.at;
    this.freshUntil = from === 'build' ? Infinity : listing.at + LIST_TTL_MS;
    if (listing.endpoint !== undefined) this.endpointUrl = listing.endpoint;
    if (listing.era !== undefined) this.era = listing.era;
  }

  private async read(): Promise<void> {
    try {
      const shared = parseListing(await this.options.store?.get().catch(() => undefined));
      const listing = shared ?? (await this.readHosted());
      this.take(listing, shared ? 'replica' : 'surface');
      this.failure = undefined;
      this.options.file?.write(listing);
    } catch (error) {
      const failure = (await outcome()).failureOf(error, 'tools/list');
      this.failure = { kind: failure.kind, message: oneLine(failure.message, 300), at: this.now() };
      this.drop();
      // Info, not a warning: a deployment without a hosted surface is no fault, and health says it.
      this.logger.info(`hosted tools not bridged: ${this.failure.message}`);
      // What was bridged stays offered until the list can be read again: a blip must not hide tools.
    }
  }

  private async readHosted(): Promise<Listing> {
    const { client, url } = await this.connect();
    const { tools } = await client.listTools(undefined, { cacheMode: 'bypass', timeout: this.callTimeoutMs() });
    const listing = { tools: tools as unknown[], at: this.now(), endpoint: url, era: client.getProtocolEra() };
    await this.options.store?.set(JSON.stringify(listing), listing.at + LIST_TTL_MS).catch(() => false);
    return listing;
  }

  private apply(admission: Admission): void {
    const key = (a: Admission) => JSON.stringify(a.tools.map(({ input: _i, output: _o, ...listed }) => listed));
    const changed = key(admission) !== key(this.admission);
    this.admission = admission;
    if (!changed) return;
    this.logger.info(
      `hosted tools bridged: ${admission.tools.map((t) => t.name).join(', ') || 'none'}; skipped ${admission.skipped.length}`,
    );
    for (const listener of this.listeners) listener();
  }

  private connect(): Promise<Connection> {
    this.connection ??= this.open().catch((error: unknown) => {
      this.connection = undefined;
      throw error;
    });
    return this.connection;
  }

  private async open(): Promise<Connection> {
    const { url, note } = await this.options.endpoint();
    this.endpointUrl = url;
    this.endpointNote = note;
    const label = new URL(url);
    const fetch = guardedFetch({
      ...this.options,
      fetch: await this.options.fetch(),
      label: () => `${label.pathname}${label.search}`,
    });
    const { openClient } = await import('./open-client.js');
    const client = await openClient(label, fetch, this.options.timeoutMs, this.callTimeoutMs());
    this.era = client.getProtocolEra();
    return { client, url };
  }

  private drop(): void {
    const connection = this.connection;
    this.connection = undefined;
    void connection?.then(({ client }) => client.close()).catch(() => {});
  }
}
