/** Whether the bytes sent so far end an SSE event (a blank line: LF LF, CR CR or CRLF CRLF). */
export class EventEndTracker {
  /** The last four bytes sent, oldest first (nothing sent counts as an event end). */
  private a = 10;
  private b = 10;
  private c = 10;
  private d = 10;

  see(chunk: Uint8Array): void {
    const n = chunk.byteLength;
    if (n >= 4) {
      this.a = chunk[n - 4]!;
      this.b = chunk[n - 3]!;
      this.c = chunk[n - 2]!;
      this.d = chunk[n - 1]!;
      return;
    }
    for (let i = 0; i < n; i++) {
      this.a = this.b;
      this.b = this.c;
      this.c = this.d;
      this.d = chunk[i]!;
    }
  }

  get atEventEnd(): boolean {
    const { a, b, c, d } = this;
    return (c === 10 && d === 10) || (c === 13 && d === 13) || (a === 13 && b === 10 && c === 13 && d === 10);
  }
}
