/**
 * The first few hundred milliseconds of a stdio session. A client's first two requests are
 * `initialize` and `tools/list`, whose answers are fixed for a build (static-answers.ts), so they
 * are sent from the recorded copy while the SDK, zod and the tools are not loaded yet. Anything
 * else, or a short idle after those answers, hands the session over to the SDK server: the lines
 * read so far are replayed to it in order (an answered initialize included, under a private id
 * whose reply is dropped, so the SDK learns the client's capabilities), and from then on stdin
 * flows to the SDK's own stdio transport untouched.
 */
import { PassThrough, type Readable } from 'node:stream';
import { staticReply, type StaticAnswers } from '../mcp/static-answers.js';

/** The id under which an already-answered initialize is replayed to the SDK; its reply is dropped. */
export const REPLAY_ID = 'service-mcp:replayed-initialize';
/** How long the session stays idle after a static answer before the SDK is loaded anyway. */
export const IDLE_HANDOVER_MS = 50;

export interface StdioFrontOptions {
  input: Readable;
  /** Writes one protocol line (with its newline) to the client. */
  write(line: string): void;
  answers: StaticAnswers;
  /** Loads the SDK server and connects it to `feed`; must drop any reply whose id is REPLAY_ID. */
  connect(feed: Readable): Promise<void>;
  onError(error: unknown): void;
  idleMs?: number;
}

export class StdioFront {
  private buffer = '';
  private readonly queued: string[] = [];
  private feed: PassThrough | undefined;
  private handover: Promise<void> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly onData = (chunk: Buffer | string) => this.receive(chunk);

  constructor(private readonly options: StdioFrontOptions) {}

  start(): void {
    this.options.input.on('data', this.onData);
  }

  /** Hands over to the SDK (once); resolves when every line read so far has been passed on. */
  handOver(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.handover ??= this.connectSdk();
    return this.handover;
  }

  private async connectSdk(): Promise<void> {
    const feed = new PassThrough();
    await this.options.connect(feed);
    for (const line of this.queued.splice(0)) feed.write(`${line}\n`);
    // From here on every byte goes to the SDK's transport as it arrives, the unfinished line first.
    if (this.buffer !== '') feed.write(this.buffer);
    this.buffer = '';
    this.feed = feed;
  }

  private receive(chunk: Buffer | string): void {
    if (this.feed) {
      this.feed.write(chunk);
      return;
    }
    this.buffer += chunk.toString();
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      this.line(line);
    }
  }

  private line(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined; // the SDK's transport reports unparseable lines; pass it on unchanged
    }
    const reply = this.handover ? undefined : staticReply(message, this.options.answers);
    if (!reply) {
      this.queued.push(line);
      // A notification needs no answer, so it waits for the handover; a request starts it now.
      const isNotification = typeof message === 'object' && message !== null && !('id' in message);
      if (!isNotification) this.handOver().catch((error: unknown) => this.options.onError(error));
      return;
    }
    this.options.write(`${JSON.stringify(reply.response)}\n`);
    if (reply.kind === 'initialize') this.queued.push(JSON.stringify({ ...(message as object), id: REPLAY_ID }));
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.handOver().catch((error: unknown) => this.options.onError(error)), this.options.idleMs ?? IDLE_HANDOVER_MS);
  }
}
