/**
 * Incremental line reader (spec 6): feed it the body's byte pieces as they arrive; it decodes UTF-8 with
 * `TextDecoder` in streaming mode (a multi-byte character split across pieces is held back until complete),
 * splits on `\n`, drops a `\r` before it (CRLF), and keeps the incomplete last line for the next piece.
 * A lone `\r` is not a line end (the AI SDK never writes one).
 */
export interface LineSplitter {
  /** Decodes `bytes` and calls `onLine` for every line completed by them. */
  push(bytes: Uint8Array, onLine: (line: string) => void): void;
  /** End of input: flushes the decoder and emits the last line if it has no line ending. */
  end(onLine: (line: string) => void): void;
}

export function createLineSplitter(): LineSplitter {
  const decoder = new TextDecoder();
  // The incomplete last line, in pieces: a long line spread over many reads is joined once, not rescanned per read.
  let pending: string[] = [];

  const split = (text: string, firstNewline: number, onLine: (line: string) => void): void => {
    let start = 0;
    let nl = firstNewline;
    while (nl !== -1) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      onLine(text.slice(start, end));
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    pending = start === text.length ? [] : [start === 0 ? text : text.slice(start)];
  };

  const feed = (decoded: string, onLine: (line: string) => void): void => {
    const nl = decoded.indexOf('\n');
    if (nl === -1) {
      if (decoded.length > 0) pending.push(decoded);
      return;
    }
    if (pending.length === 0) return split(decoded, nl, onLine);
    const head = pending.join('');
    split(head + decoded, head.length + nl, onLine);
  };

  return {
    push(bytes, onLine) {
      feed(decoder.decode(bytes, { stream: true }), onLine);
    },
    end(onLine) {
      feed(decoder.decode(), onLine);
      if (pending.length === 0) return;
      const last = pending.join('');
      pending = [];
      onLine(last.charCodeAt(last.length - 1) === 13 ? last.slice(0, -1) : last);
    },
  };
}
