/**
 * Cuts stdin's bytes into lines for the stdio transport (stdio-transport.ts). A line longer than
 * the limit is skipped up to its newline and reported by its length, never held whole: one line
 * must not be able to take all the memory. What the SDK's ReadBuffer lacks (a bound that answers
 * rather than fails), and so ours.
 */
export class LineSplitter {
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Bytes of an oversized line skipped so far (0: not skipping), up to its newline. */
  private dropping = 0;

  constructor(
    private readonly maxLineBytes: number,
    /** One whole line, without its newline (a CR before it is the reader's to drop). */
    private readonly onLine: (line: string) => void,
    /** A line over the limit was skipped; `length` is as far as it was counted. */
    private readonly onOversized: (length: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let bytes = chunk;
    let newline: number;
    while ((newline = bytes.indexOf(0x0a)) >= 0) {
      const length = this.dropping + this.heldBytes + newline;
      const held = this.held;
      this.held = [];
      this.heldBytes = 0;
      this.dropping = 0;
      if (length > this.maxLineBytes) this.onOversized(length);
      else
        this.onLine(
          (held.length === 0
            ? bytes.subarray(0, newline)
            : Buffer.concat([...held, bytes.subarray(0, newline)])
          ).toString('utf8'),
        );
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
  }

  /** At the end of input: a last line without its newline is still a line. */
  end(): void {
    if (this.heldBytes > 0) this.onLine(Buffer.concat(this.held).toString('utf8'));
    this.held = [];
    this.heldBytes = 0;
  }
}
