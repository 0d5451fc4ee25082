// Line and column of a place in a text read chunk by chunk: 1-based; the column counts characters (a surrogate pair,
// i.e. a character beyond the Basic Multilingual Plane, is one; a multi-byte UTF-8 character is one), and a line ends
// at LF (so CRLF ends it too, the CR being the last character of its line). The counter only moves forward, and costs
// one native search per line plus a look at each character of a line that holds several records.
export interface Location {
  line: number;
  column: number;
}

export class LineCounter {
  private line = 1;
  /** Index (in the whole text, in UTF-16 units) of the first character of the current line. */
  private lineStart = 0;
  /** Low surrogates between lineStart and counted (each pair counts as one column). */
  private surrogates = 0;
  /** The text before this index is counted. */
  private counted = 0;
  /** No newline lies in counted..searchedTo, except at newlineAt when that is not -1. */
  private searchedTo = 0;
  private newlineAt = -1;

  /**
   * Counts the text up to `to` (an index in the whole text); `buf` holds the text from index `base` on, and must
   * still hold everything from the last counted index.
   */
  advance(buf: string, base: number, to: number): void {
    while (this.counted < to) {
      if (this.searchedTo <= this.counted) {
        const k = buf.indexOf('\n', this.counted - base);
        this.newlineAt = k === -1 ? -1 : base + k;
        this.searchedTo = k === -1 ? base + buf.length : base + k + 1;
      }
      const stop = Math.min(to, this.searchedTo);
      if (this.newlineAt !== -1 && this.newlineAt < stop) {
        this.line++;
        this.lineStart = this.newlineAt + 1;
        this.surrogates = 0;
        this.counted = this.lineStart;
      } else {
        for (let j = this.counted - base; j < stop - base; j++) {
          const c = buf.charCodeAt(j);
          if (c >= 0xdc00 && c <= 0xdfff) this.surrogates++;
        }
        this.counted = stop;
      }
    }
  }

  /** The location of `index`, which must be the last index counted (call advance first). */
  locate(index: number): Location {
    return { line: this.line, column: index - this.lineStart - this.surrogates + 1 };
  }
}
