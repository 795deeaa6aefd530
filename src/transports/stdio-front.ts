/**
 * What reads stdin in a stdio session. For its first few hundred milliseconds: a client's first
 * two requests are `initialize` and `tools/list`, whose answers are fixed for a build
 * (static-answers.ts), so they are sent from the recorded copy while the SDK, zod and the tools are
 * not loaded yet. Anything else, or a short idle after those answers, hands the session over to
 * the SDK server: the lines read so far are replayed to it in order (an answered initialize
 * included, under a private id whose reply is dropped, so the SDK learns the client's
 * capabilities). From then on each line is offered to the call lane (stdio-calls.ts), when the
 * connection has one, and whatever it does not take goes on to the SDK's own stdio transport.
 */
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { staticReply, type StaticAnswers } from '../mcp/static-answers.js';

/** The id under which an already-answered initialize is replayed to the SDK; its reply is dropped. */
export const REPLAY_ID = 'service-mcp:replayed-initialize';
/** How long the session stays idle after a static answer before the SDK is loaded anyway. */
export const IDLE_HANDOVER_MS = 50;

/**
 * What the SDK's stdio transport reads after the handover: the lines the call lane does not take
 * (without a lane, each chunk of stdin as it arrives), handed on synchronously, as Buffers. A
 * PassThrough stream here cost about 55 µs of every call (a buffered write, a transform and a
 * deferred read per chunk) for an ordering the emitter keeps anyway. The transport listens for
 * 'data' and 'error' and pauses its input when it closes, so that is all a Feed does.
 */
export class Feed extends EventEmitter {
  pause(): this {
    return this;
  }
}

export type Taker = (message: unknown) => boolean;

export interface StdioFrontOptions {
  input: Readable;
  /** Writes one protocol line (with its newline) to the client. */
  write(line: string): void;
  /** The recorded answers; without them the session is handed over at once. */
  answers: StaticAnswers | undefined;
  /**
   * Loads the SDK server and connects it to `feed`; must drop any reply whose id is REPLAY_ID. May
   * return a taker, offered every later message first: true means it handled the message.
   */
  connect(feed: Feed): Promise<Taker | void>;
  onError(error: unknown): void;
  /** Told when a line longer than MAX_LINE_BYTES was dropped unread. */
  onOversize?(bytes: number): void;
  idleMs?: number;
}

/**
 * The longest line read, as the SDK's own stdio transport allows. A longer one is dropped up to its
 * newline, and the session goes on: holding it would let one message take all the memory.
 */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

export class StdioFront {
  /**
   * The chunks of the unfinished line, joined only when its newline arrives: lines are split at
   * newline bytes, so a character cut between chunks stays whole, and a long line arriving in many
   * chunks is copied once, not once per chunk.
   */
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Skipping the rest of an oversized line, up to its newline. */
  private dropping = 0;
  private readonly queued: string[] = [];
  private feed: Feed | undefined;
  private take: Taker | undefined;
  private handover: Promise<void> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly onData = (chunk: Buffer | string) => this.receive(chunk);

  constructor(private readonly options: StdioFrontOptions) {}

  start(): void {
    this.options.input.on('data', this.onData);
    if (!this.options.answers) this.handOver().catch((error: unknown) => this.options.onError(error));
  }

  /** Hands over to the SDK (once); resolves when every line read so far has been passed on. */
  handOver(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.handover ??= this.connectSdk();
    return this.handover;
  }

  private async connectSdk(): Promise<void> {
    const feed = new Feed();
    this.take = (await this.options.connect(feed)) ?? undefined;
    this.feed = feed;
    for (const line of this.queued.splice(0)) this.pass(line);
    // From here on every byte goes on as it arrives, the unfinished line first.
    if (!this.take && this.held.length > 0) {
      feed.emit('data', Buffer.concat(this.held));
      this.clearHeld();
    }
  }

  private receive(chunk: Buffer | string): void {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (this.feed && !this.take) {
      this.feed.emit('data', bytes);
      return;
    }
    let newline: number;
    while ((newline = bytes.indexOf(0x0a)) >= 0) {
      const end = this.heldBytes + newline;
      if (this.dropping > 0 || end > MAX_LINE_BYTES) this.dropped(this.dropping + end);
      else {
        const text = this.held.length === 0 ? bytes.toString('utf8', 0, newline) : Buffer.concat([...this.held, bytes.subarray(0, newline)]).toString('utf8');
        const line = text.endsWith('\r') ? text.slice(0, -1) : text;
        this.clearHeld();
        if (this.feed) this.pass(line);
        else this.line(line);
      }
      bytes = bytes.subarray(newline + 1);
    }
    if (bytes.length === 0) return;
    if (this.dropping > 0) this.dropping += bytes.length;
    else if (this.heldBytes + bytes.length > MAX_LINE_BYTES) {
      this.dropping = this.heldBytes + bytes.length;
      this.clearHeld();
    } else {
      this.held.push(bytes);
      this.heldBytes += bytes.length;
    }
  }

  private clearHeld(): void {
    this.held = [];
    this.heldBytes = 0;
  }

  /** An oversized line has ended: reported once, with its length. */
  private dropped(lineBytes: number): void {
    this.dropping = 0;
    this.clearHeld();
    this.options.onOversize?.(lineBytes);
  }

  /** After the handover: the taker's if it takes the message, else the SDK's. */
  private pass(line: string): void {
    if (this.take) {
      const message = parse(line);
      if (message !== undefined && this.take(message)) return;
    }
    this.feed!.emit('data', Buffer.from(`${line}\n`));
  }

  private line(line: string): void {
    const message = parse(line);
    const reply = this.handover || !this.options.answers ? undefined : staticReply(message, this.options.answers);
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

function parse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined; // the SDK's transport reports unparseable lines; pass it on unchanged
  }
}
