/**
 * The stdio wire for the SDK's `serveStdio`, passed through its `transport` option: the SDK
 * parses (`deserializeMessage`), dispatches, answers and serializes (`serializeMessage`) every
 * message; this only carries lines, and mends three things the SDK's own StdioServerTransport
 * does not do yet:
 *
 * - A line that is not a JSON-RPC message gets a JSON-RPC error (-32700 when it is not JSON,
 *   -32600 when it is JSON but no message, a batch included), with the request's id when one can
 *   be read, so a client is never left waiting for an answer that cannot come.
 * - At most `maxInFlight` requests are handed on and unanswered at a time; later ones wait here,
 *   in order, and stdin is paused once `readAheadBytes` of them wait, so a client that writes
 *   thousands of calls cannot make thousands run at once. Only requests wait for a slot: a
 *   cancellation is handed on at once (or drops the waiting request it names), and so is a
 *   client's answer, since neither starts any work, and a cancelled call must be able to free
 *   its slot while the others hold theirs. Reading ahead is what lets a cancellation behind
 *   waiting requests be seen; past `readAheadBytes` it waits until a call ends (each is bounded
 *   by --timeout-ms), which keeps memory bounded.
 * - While stdout is backed up (a client writing calls and not reading), nothing is handed on and
 *   stdin is paused; reading resumes on 'drain'.
 * - At the end of input, every request read is still answered: waiting ones are started as slots
 *   free, and the transport closes once each has its answer (or was cancelled). Should no answer
 *   come for `endGraceMs`, the ones still owed get a JSON-RPC error, so no id is left unanswered.
 * - On `stopping()` (SIGTERM), requests not started, and any read from then on, get an error at
 *   once; `answerRemaining()` answers what is still running when the grace period is up.
 *
 * Upstream, these belong in StdioServerTransport itself (an error answer from ReadBuffer's parse
 * failures, a bound on requests in flight, pause-on-backpressure, and a drain at end of input);
 * with them this file can go.
 */
import type { Readable } from 'node:stream';
import {
  deserializeMessage,
  INVALID_REQUEST,
  PARSE_ERROR,
  serializeMessage,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import { isRecord } from '../is-record.js';
import { condenseErrorMessage } from '../mcp/protocol-errors.js';

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

/** JSON-RPC's implementation-defined server error, as the HTTP refusals use. */
const SERVER_ERROR = -32000;

/**
 * `subscriptions/listen` stays open until the client cancels it, and the SDK bounds those itself
 * (maxSubscriptions): counted as a call, a few would hold every slot for good.
 */
const LONG_LIVED = new Set(['subscriptions/listen']);

/** A message read and not handed on yet; `bytes` is its line's length (in characters), for the read-ahead bound. */
interface Waiting {
  message: JSONRPCMessage;
  bytes: number;
  /** Cancelled while waiting: dropped when its turn comes, never started or answered. */
  dropped?: boolean;
}

/** How far into a line that is not JSON an id is looked for: it comes near the start. */
const ID_SCAN_CHARS = 200;

const isRequestId = (value: unknown): value is RequestId => typeof value === 'string' || typeof value === 'number';

const isRequest = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } =>
  'method' in message && 'id' in message;

/** The id of a line that is not (whole) JSON, when it can be read, as a client would match it. */
function recoverId(line: string): RequestId | null {
  const match = /"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.){0,100}")/.exec(line.slice(0, ID_SCAN_CHARS));
  if (!match) return null;
  try {
    const id: unknown = JSON.parse(match[1]!);
    return isRequestId(id) ? id : null;
  } catch {
    return null;
  }
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Messages read and not yet handed on: while stdout is backed up, or requests waiting for a slot. */
  private waiting: Waiting[] = [];
  private waitingBytes = 0;
  /** Requests among `waiting`, by id, so a cancellation can find the one it names. */
  private readonly waitingRequests = new Map<RequestId, Waiting>();
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Bytes of an oversized line skipped so far (0: not skipping), up to its newline. */
  private dropping = 0;
  private backedUp = false;
  private ended = false;
  private closed = false;
  /** Requests handed on and not yet answered. */
  private readonly unanswered = new Set<RequestId>();
  /** Those of them that hold a slot (all but long-lived ones). */
  private readonly running = new Set<RequestId>();
  /** Set by stopping(): the text every request not yet started is answered with. */
  private refusal: string | undefined;
  private endTimer: NodeJS.Timeout | undefined;
  private handOnScheduled = false;
  private settledWaiters: Array<() => void> = [];
  /** Ids given an error by answerRemaining: the SDK's own answer, should it still come, is dropped. */
  private readonly answeredHere = new Set<RequestId>();
  private readonly maxLineBytes: number;
  private readonly maxInFlight: number;
  private readonly readAheadBytes: number;
  /** Resolves when the transport has closed, for whoever must exit the process after it. */
  readonly closedPromise: Promise<void>;
  private resolveClosed!: () => void;

  constructor(
    private readonly input: Readable,
    private readonly output: LineOutput,
    private readonly options: LineTransportOptions,
  ) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.maxInFlight = options.maxInFlight ?? Number.POSITIVE_INFINITY;
    this.readAheadBytes = options.readAheadBytes ?? READ_AHEAD_BYTES;
    this.closedPromise = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  private readonly onData = (chunk: Buffer) => this.receive(chunk);
  private readonly onEnd = () => this.endOfInput();
  private readonly onInputError = (error: Error) => this.onerror?.(error);
  private readonly onDrain = () => {
    this.backedUp = false;
    this.handOn();
  };

  /** Requests handed on and not answered yet, that hold a slot. */
  get inFlight(): number {
    return this.running.size;
  }

  /** Requests handed on and not answered yet (cancelled ones excepted: they get no answer). */
  get owed(): number {
    return this.unanswered.size;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.once('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the stdio transport is closed');
    const answerTo =
      'id' in message && ('result' in message || 'error' in message) && isRequestId(message.id)
        ? message.id
        : undefined;
    // Already answered with an error before exit; a second answer to one id would break the client.
    if (answerTo !== undefined && this.answeredHere.delete(answerTo)) return;
    if ('error' in message)
      message = { ...message, error: { ...message.error, message: condenseErrorMessage(message.error.message) } };
    this.write(serializeMessage(message));
    if (answerTo !== undefined) this.answered(answerTo);
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
    if (this.unanswered.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private checkSettled(): void {
    if (this.unanswered.size > 0 || this.settledWaiters.length === 0) return;
    for (const resolve of this.settledWaiters.splice(0)) resolve();
  }

  /** Answers every request still owed with an error saying `why` (a backstop before exit). */
  answerRemaining(why: string): void {
    for (const id of this.unanswered) {
      this.refuse(SERVER_ERROR, why, id);
      this.answeredHere.add(id);
    }
    this.unanswered.clear();
    this.running.clear();
    for (const waiting of this.waiting.splice(0))
      if (isRequest(waiting.message) && !waiting.dropped) this.refuse(SERVER_ERROR, why, waiting.message.id);
    this.waitingRequests.clear();
    this.waitingBytes = 0;
    this.checkSettled();
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

  /** Reads while nothing is backed up and the requests waiting for a slot stay under the read-ahead. */
  private updateReading(): void {
    if (this.ended || this.closed) return;
    if (this.backedUp || this.waitingBytes >= this.readAheadBytes) this.input.pause();
    else if (this.input.isPaused()) this.input.resume();
  }

  private receive(chunk: Buffer): void {
    let bytes = chunk;
    let newline: number;
    while ((newline = bytes.indexOf(0x0a)) >= 0) {
      const length = this.dropping + this.heldBytes + newline;
      if (length > this.maxLineBytes) this.refuseOversized(length);
      else
        this.read(
          (this.held.length === 0
            ? bytes.subarray(0, newline)
            : Buffer.concat([...this.held, bytes.subarray(0, newline)])
          ).toString('utf8'),
        );
      // Line by line, so what nothing holds back keeps the order it was written in.
      this.handOn();
      this.held = [];
      this.heldBytes = 0;
      bytes = bytes.subarray(newline + 1);
    }
    if (this.dropping > 0) this.dropping += bytes.length;
    else if (bytes.length > 0) {
      if (this.heldBytes + bytes.length > this.maxLineBytes) {
        // Holding the rest would let one line take all the memory: skip to its newline.
        this.dropping = this.heldBytes + bytes.length;
        this.held = [];
        this.heldBytes = 0;
      } else {
        this.held.push(bytes);
        this.heldBytes += bytes.length;
      }
    }
    this.handOn();
  }

  private refuseOversized(length: number): void {
    this.dropping = 0;
    this.refuse(
      INVALID_REQUEST,
      `Invalid Request: a message of more than ${this.maxLineBytes} bytes cannot be read`,
      null,
    );
    this.options.onRefused?.(
      `dropped a message of ${length} bytes from stdin, over the ${this.maxLineBytes}-byte limit`,
    );
  }

  /**
   * Hands on what was read, in order, until stdout backs up or a request finds every slot taken;
   * then decides whether to read on.
   */
  private handOn(): void {
    while (this.waiting.length > 0 && !this.backedUp && !this.closed) {
      const next = this.waiting[0]!;
      const request = isRequest(next.message) && !next.dropped ? next.message : undefined;
      if (
        request &&
        this.refusal === undefined &&
        !LONG_LIVED.has(request.method) &&
        this.running.size >= this.maxInFlight
      )
        break;
      this.waiting.shift();
      this.waitingBytes -= next.bytes;
      if (next.dropped) continue;
      if (request) {
        this.waitingRequests.delete(request.id);
        if (this.refusal !== undefined) {
          this.refuse(SERVER_ERROR, this.refusal, request.id);
          continue;
        }
      }
      this.handOnNow(next.message);
    }
    this.updateReading();
    if (this.ended) this.closeWhenAnswered();
  }

  private handOnNow(message: JSONRPCMessage): void {
    if (isRequest(message)) {
      this.unanswered.add(message.id);
      if (!LONG_LIVED.has(message.method)) this.running.add(message.id);
    }
    this.onmessage?.(message);
  }

  /** One line read: refused, handed on at once (cancellations, answers), or queued in order. */
  private read(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      this.refuseLine(line);
      return;
    }
    if (
      'method' in message &&
      message.method === 'notifications/cancelled' &&
      isRecord(message.params) &&
      isRequestId(message.params.requestId)
    ) {
      const id = message.params.requestId;
      const waiting = this.waitingRequests.get(id);
      if (waiting) {
        // Never started: dropped here, and, like any cancelled request, never answered.
        waiting.dropped = true;
        this.waitingRequests.delete(id);
        return;
      }
      // A cancelled request is not answered (the SDK aborts it silently), so it is not waited
      // for, and its slot is free at once.
      this.unanswered.delete(id);
      this.running.delete(id);
      this.handOnNow(message);
      this.checkSettled();
      this.scheduleHandOn();
      return;
    }
    if (!('method' in message)) {
      // A client's answer to one of our requests starts no work and may be what a call waits on.
      this.handOnNow(message);
      return;
    }
    const waiting: Waiting = { message, bytes: line.length };
    if (isRequest(message)) this.waitingRequests.set(message.id, waiting);
    this.waiting.push(waiting);
    this.waitingBytes += waiting.bytes;
  }

  private refuseLine(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.refuse(PARSE_ERROR, 'Parse error: the line is not valid JSON', recoverId(line));
      this.options.onRefused?.('answered a line that is not JSON with -32700');
      return;
    }
    if (Array.isArray(parsed)) {
      // MCP has no batches: each request in one is answered, so none is left waiting.
      const ids = parsed
        .filter((item) => isRecord(item) && isRequestId(item.id))
        .map((item) => (item as { id: RequestId }).id);
      for (const id of ids.length > 0 ? ids : [null])
        this.refuse(
          INVALID_REQUEST,
          'Invalid Request: JSON-RPC batches are not supported; send one message per line',
          id,
        );
    } else {
      const id = isRecord(parsed) && isRequestId(parsed.id) ? parsed.id : null;
      const why =
        id !== null && !Number.isSafeInteger(id) && typeof id !== 'string'
          ? 'an id must be a string or an integer'
          : 'a message has "jsonrpc": "2.0" and a method, or an id with a result or an error';
      this.refuse(INVALID_REQUEST, `Invalid Request: not a JSON-RPC 2.0 message (${why})`, id);
    }
    this.options.onRefused?.('answered a line that is not a JSON-RPC message with -32600');
  }

  private refuse(code: number, message: string, id: RequestId | null): void {
    this.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`);
  }

  private answered(id: RequestId): void {
    this.unanswered.delete(id);
    this.running.delete(id);
    this.checkSettled();
    if (this.ended) this.armEndTimer();
    this.scheduleHandOn();
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

  private endOfInput(): void {
    this.ended = true;
    // A last line without its newline is still a line.
    if (this.heldBytes > 0) this.read(Buffer.concat(this.held).toString('utf8'));
    this.held = [];
    this.heldBytes = 0;
    this.armEndTimer();
    this.handOn();
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

  private closeWhenAnswered(): void {
    if (this.waiting.length === 0 && this.unanswered.size === 0) void this.close();
  }
}
