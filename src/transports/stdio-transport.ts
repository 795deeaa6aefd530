/**
 * The stdio wire for the SDK's `serveStdio` (its `transport` option): the SDK parses, answers and
 * serializes every message; this carries lines (stdio-lines.ts), answers those that are no message
 * (stdio-refusals.ts), and adds what StdioServerTransport lacks (stdio-requests.ts tracks each
 * request): at most `maxInFlight` requests handed on at a time, later ones waiting in order until
 * `readAheadBytes`, where stdin pauses; cancellations and client answers pass at once; nothing
 * handed on while stdout is backed up; at the end of input every request read still answered (an
 * error after `endGraceMs` without one); on stopping(), requests not started refused.
 * Upstream, they belong in StdioServerTransport; with them these files can go.
 */
import type { Readable } from 'node:stream';
import { isJSONRPCResponse, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { condenseErrorMessage } from '../mcp/protocol-errors.js';
import { rpcError, type ErrorAnswer } from '../lib/http-server.js';
import { LineSplitter } from './stdio-lines.js';
import { classify, Requests } from './stdio-requests.js';
import { oversized, type Refusal } from './stdio-refusals.js';

/** The way out to stdout: a plain write that says when the buffer is full, and its 'drain'. */
export interface LineOutput {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

export interface LineTransportOptions {
  /** The longest line read (as the SDK's own transport allows); a longer one is dropped and answered. */
  maxLineBytes?: number;
  /** After the end of input, how long to wait for the next answer before answering the rest with an error. */
  endGraceMs: number;
  /** Requests handed on and not yet answered, at most (unbounded when absent). */
  maxInFlight?: number;
  /** Bytes of requests read ahead while waiting for a slot, past which stdin is paused. */
  readAheadBytes?: number;
  /** Told about lines that could not be handed on (not JSON-RPC, or too long). */
  onRefused?(reason: string): void;
}

const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * 1 MB of waiting requests: thousands of ordinary calls, so a cancellation written behind them is
 * still read, and a few MB of memory at most once parsed.
 */
const READ_AHEAD_BYTES = 1024 * 1024;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly requests: Requests;
  private readonly lines: LineSplitter;
  private backedUp = false;
  private ended = false;
  private closed = false;
  /** Set by stopping(): the text every request not yet started is answered with. */
  private refusal: string | undefined;
  private endTimer: NodeJS.Timeout | undefined;
  private handOnScheduled = false;
  /** Resolves when the transport has closed, for whoever must exit the process after it. */
  readonly closedPromise: Promise<void>;
  private resolveClosed!: () => void;

  constructor(
    private readonly input: Readable,
    private readonly output: LineOutput,
    private readonly options: LineTransportOptions,
  ) {
    const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.requests = new Requests(options.maxInFlight ?? Number.POSITIVE_INFINITY);
    this.closedPromise = new Promise((resolve) => (this.resolveClosed = resolve));
    this.lines = new LineSplitter(
      maxLineBytes,
      (line) => {
        this.read(line);
        // Line by line, so what nothing holds back keeps the order it was written in.
        this.handOn();
      },
      (length) => this.refused(oversized(maxLineBytes, length)),
    );
  }

  private readonly onData = (chunk: Buffer) => {
    this.lines.push(chunk);
    this.handOn();
  };
  private readonly onEnd = () => {
    this.ended = true;
    this.lines.end();
    this.armEndTimer();
    this.handOn();
  };
  private readonly onInputError = (error: Error) => this.onerror?.(error);
  private readonly onDrain = () => {
    this.backedUp = false;
    this.handOn();
  };

  get owed(): number {
    return this.requests.owing;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.once('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the stdio transport is closed');
    if (!isJSONRPCResponse(message)) return this.write(serializeMessage(message));
    // Not after answerRemaining: a second answer to one id would break the client.
    if (!this.requests.answered(message.id)) return;
    if ('error' in message)
      message = { ...message, error: { ...message.error, message: condenseErrorMessage(message.error.message) } };
    this.write(serializeMessage(message));
    if (this.ended) this.armEndTimer();
    this.scheduleHandOn();
  }

  /**
   * From now on no request is started: those waiting, and any read later, are answered at once
   * with an error saying `why`; calls running go on. Reading goes on too, so cancellations of
   * running calls still arrive.
   */
  stopping(why: string): void {
    this.refusal = why;
    this.handOn();
  }

  /** Resolves once no request handed on is owed an answer. */
  settled(): Promise<void> {
    return this.requests.settled();
  }

  /** Answers every request still owed with an error saying `why` (a backstop before exit). */
  answerRemaining(why: string): void {
    this.refusal ??= why;
    for (const id of this.requests.answerAll()) this.refuse(rpcError(why, id));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.endTimer);
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.input.pause();
    this.onclose?.();
    this.resolveClosed();
  }

  private write(line: string): void {
    if (this.output.write(line) || this.backedUp) return;
    this.backedUp = true;
    this.input.pause();
    this.output.once('drain', this.onDrain);
  }

  private refuse(answer: ErrorAnswer): void {
    this.write(`${JSON.stringify(answer)}\n`);
  }

  /** Reads while nothing is backed up and the requests waiting for a slot stay under the read-ahead. */
  private updateReading(): void {
    if (this.ended || this.closed) return;
    if (this.backedUp || this.requests.bytes >= (this.options.readAheadBytes ?? READ_AHEAD_BYTES)) this.input.pause();
    else if (this.input.isPaused()) this.input.resume();
  }

  /**
   * Hands on what was read, in order, until stdout backs up or a request finds every slot taken;
   * then decides whether to read on.
   */
  private handOn(): void {
    while (!this.backedUp && !this.closed) {
      const next = this.requests.next(this.refusal !== undefined);
      if (!next) break;
      if (next.kind === 'request' && this.refusal !== undefined) this.refuse(rpcError(this.refusal, next.message.id));
      else this.onmessage?.(next.message);
    }
    this.updateReading();
    if (this.ended && this.requests.done) void this.close();
  }

  /** One line read: refused, handed on at once (cancellations, answers), or queued in order. */
  private read(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    const read = classify(line);
    if (read.kind === 'refused') return this.refused(read.refusal);
    // A client's answer to one of our requests starts no work and may be what a call waits on.
    if (read.kind === 'response') return this.onmessage?.(read.message);
    if (read.kind !== 'cancellation') return this.requests.push(read);
    // One still waiting is dropped there, unstarted: the SDK need not hear of it.
    if (this.requests.cancel(read.requestId)) return;
    this.onmessage?.(read.message);
    this.scheduleHandOn();
  }

  private refused({ answers, note }: Refusal): void {
    for (const answer of answers) this.refuse(answer);
    this.options.onRefused?.(note);
  }

  /** A slot came free: the next request waiting is handed on after the current answer is out. */
  private scheduleHandOn(): void {
    if (this.handOnScheduled) return;
    this.handOnScheduled = true;
    queueMicrotask(() => {
      this.handOnScheduled = false;
      this.handOn();
    });
  }

  /**
   * Restarted by every answer: requests waiting at the end of input are still started and each
   * gets its time, but a run with no answer for `endGraceMs` is stuck, and what is owed is
   * answered with an error rather than left without an answer.
   */
  private armEndTimer(): void {
    clearTimeout(this.endTimer);
    this.endTimer = setTimeout(() => {
      this.answerRemaining(
        `Server error: no answer within ${this.options.endGraceMs} ms after the end of input; the request was not completed`,
      );
      void this.close();
    }, this.options.endGraceMs);
    this.endTimer.unref();
  }
}
