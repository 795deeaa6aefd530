/**
 * The stdio wire for the SDK's `serveStdio`, passed through its `transport` option: the SDK
 * parses (`deserializeMessage`), dispatches, answers and serializes (`serializeMessage`) every
 * message; this only carries lines, and mends three things the SDK's own StdioServerTransport
 * does not do yet:
 *
 * - A line that is not a JSON-RPC message gets a JSON-RPC error (-32700 when it is not JSON,
 *   -32600 when it is JSON but no message, a batch included), with the request's id when one can
 *   be read, so a client is never left waiting for an answer that cannot come.
 * - While stdout is backed up (a client writing calls and not reading), no further line is
 *   handed on and stdin is paused, so memory stays bounded; reading resumes on 'drain'.
 * - At the end of input, requests already handed on are still answered: the transport closes
 *   once each has its answer (or was cancelled), or when `endGraceMs` is up.
 *
 * Upstream, these belong in StdioServerTransport itself (an error answer from ReadBuffer's parse
 * failures, pause-on-backpressure, and a drain at end of input); with them this file can go.
 */
import type { Readable } from 'node:stream';
import { deserializeMessage, INVALID_REQUEST, PARSE_ERROR, serializeMessage, type JSONRPCMessage, type RequestId, type Transport } from '@modelcontextprotocol/server';
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
  /** How long requests still running at the end of input may take to be answered. */
  endGraceMs: number;
  /** Told about lines that could not be handed on (not JSON-RPC, or too long). */
  onRefused?(reason: string): void;
}

export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** How far into a line that is not JSON an id is looked for: it comes near the start. */
const ID_SCAN_CHARS = 200;

const isRequestId = (value: unknown): value is RequestId => typeof value === 'string' || typeof value === 'number';

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

  /** Lines read and not yet handed on (only while stdout is backed up). */
  private readonly waiting: string[] = [];
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Bytes of an oversized line skipped so far (0: not skipping), up to its newline. */
  private dropping = 0;
  private backedUp = false;
  private ended = false;
  private closed = false;
  /** Requests handed on and not yet answered. */
  private readonly unanswered = new Set<RequestId>();
  private endTimer: NodeJS.Timeout | undefined;
  private readonly maxLineBytes: number;
  /** Resolves when the transport has closed, for whoever must exit the process after it. */
  readonly closedPromise: Promise<void>;
  private resolveClosed!: () => void;

  constructor(
    private readonly input: Readable,
    private readonly output: LineOutput,
    private readonly options: LineTransportOptions,
  ) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.closedPromise = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  private readonly onData = (chunk: Buffer) => this.receive(chunk);
  private readonly onEnd = () => this.endOfInput();
  private readonly onInputError = (error: Error) => this.onerror?.(error);
  private readonly onDrain = () => {
    this.backedUp = false;
    this.handOn();
    if (!this.backedUp && !this.ended) this.input.resume();
  };

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.once('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the stdio transport is closed');
    if ('error' in message) message = { ...message, error: { ...message.error, message: condenseErrorMessage(message.error.message) } };
    this.write(serializeMessage(message));
    if ('id' in message && ('result' in message || 'error' in message) && isRequestId(message.id)) this.answered(message.id);
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

  private receive(chunk: Buffer): void {
    let bytes = chunk;
    let newline: number;
    while ((newline = bytes.indexOf(0x0a)) >= 0) {
      const length = this.dropping + this.heldBytes + newline;
      if (length > this.maxLineBytes) this.refuseOversized(length);
      else {
        const line = (this.held.length === 0 ? bytes.subarray(0, newline) : Buffer.concat([...this.held, bytes.subarray(0, newline)])).toString('utf8');
        this.waiting.push(line);
      }
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
    this.refuse(INVALID_REQUEST, `Invalid Request: a message of more than ${this.maxLineBytes} bytes cannot be read`, null);
    this.options.onRefused?.(`dropped a message of ${length} bytes from stdin, over the ${this.maxLineBytes}-byte limit`);
  }

  /** Hands on the lines read, until stdout backs up. */
  private handOn(): void {
    while (this.waiting.length > 0 && !this.backedUp && !this.closed) this.line(this.waiting.shift()!);
    if (this.ended) this.closeWhenAnswered();
  }

  private line(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      this.refuseLine(line);
      return;
    }
    if ('method' in message && 'id' in message) this.unanswered.add(message.id);
    // A cancelled request is not answered (the SDK aborts it silently), so it is not waited for.
    if ('method' in message && message.method === 'notifications/cancelled' && isRecord(message.params) && isRequestId(message.params.requestId)) {
      this.unanswered.delete(message.params.requestId);
    }
    this.onmessage?.(message);
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
      const ids = parsed.filter((item) => isRecord(item) && isRequestId(item.id)).map((item) => (item as { id: RequestId }).id);
      for (const id of ids.length > 0 ? ids : [null]) this.refuse(INVALID_REQUEST, 'Invalid Request: JSON-RPC batches are not supported; send one message per line', id);
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
    if (this.ended) this.closeWhenAnswered();
  }

  private endOfInput(): void {
    this.ended = true;
    // A last line without its newline is still a line.
    if (this.heldBytes > 0) this.waiting.push(Buffer.concat(this.held).toString('utf8'));
    this.held = [];
    this.heldBytes = 0;
    this.endTimer = setTimeout(() => void this.close(), this.options.endGraceMs);
    this.endTimer.unref();
    this.handOn();
  }

  private closeWhenAnswered(): void {
    if (this.waiting.length === 0 && this.unanswered.size === 0) void this.close();
  }
}
