// The token ids of every text, one text after another in one array, and where each text starts: 2 bytes a token while
// ids fit (a vocabulary under 65,536 words-with-separator), 4 after.

export class TokenSequence {
  /** Text p's tokens are tokens[starts[p]] up to tokens[starts[p + 1]]. */
  readonly starts: Int32Array;
  private buffer: Uint16Array | Uint32Array;
  private length = 0;
  /** Texts ended. */
  private ended = 0;

  constructor(texts: number) {
    this.starts = new Int32Array(texts + 1);
    // Some 40 tokens a review text: a few doublings at most.
    this.buffer = new Uint16Array(Math.max(64, texts * 16));
  }

  /** Every text's tokens; a new array after a `push`. */
  get tokens(): Uint16Array | Uint32Array {
    return this.buffer;
  }

  push(token: number): void {
    const full = this.length === this.buffer.length;
    if (full || (token > 0xffff && this.buffer instanceof Uint16Array)) {
      const capacity = full ? 2 * this.buffer.length : this.buffer.length;
      const grown =
        token > 0xffff || this.buffer instanceof Uint32Array ? new Uint32Array(capacity) : new Uint16Array(capacity);
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer[this.length++] = token;
  }

  /** The tokens pushed since the last call are the next text's. */
  endText(): void {
    this.starts[++this.ended] = this.length;
  }

  /** No more texts: the rest have none, and the array is cut to its length. */
  seal(): void {
    this.starts.fill(this.length, this.ended + 1);
    this.buffer = this.buffer.slice(0, this.length);
  }
}
