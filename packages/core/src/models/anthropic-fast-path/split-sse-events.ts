const LF = 10;
const CR = 13;
const SPACE = 32;

/** Feeds a body's bytes, chunk by chunk; `onData` gets each event's `data` (its `data:` lines joined by `\n`). */
export interface SseSplitter {
  push(bytes: Uint8Array): void;
}

/**
 * Splits a server-sent-events byte stream into its events' data exactly as `@ai-sdk/provider-utils` does
 * (`TextDecoderStream` then eventsource-parser 3's `EventSourceParserStream`, which only `data` is read of):
 * UTF-8 decoded in stream mode (a character split across chunks waits for its last byte, invalid bytes
 * become U+FFFD, a leading BOM is dropped), lines ended by `\n`, `\r` or `\r\n` (a `\r` at the end of what
 * has arrived waits for the next byte, and text without a line end waits for one), `data:` lines (one space
 * after the colon dropped, a bare `data` line counting as an empty one) joined by `\n`, an event dispatched
 * at a blank line when it has at least one `data` line, comments and other fields ignored, `[DONE]` skipped,
 * and whatever follows the last blank line dropped when the body ends.
 */
export function createSseSplitter(onData: (data: string) => void): SseSplitter {
  const decoder = new TextDecoder();
  let firstText = true;
  let pending = '';
  let data = '';
  let dataLines = 0;

  const line = (text: string, start: number, end: number): void => {
    if (start === end) {
      if (dataLines > 0) {
        const event = data;
        data = '';
        dataLines = 0;
        if (event !== '[DONE]') onData(event);
      }
      return;
    }
    if (text.charCodeAt(start) !== 100 || !text.startsWith('data', start)) return;
    let value: string;
    if (end - start === 4) value = '';
    else if (text.charCodeAt(start + 4) === 58) value = text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end);
    else return;
    data = dataLines === 0 ? value : `${data}\n${value}`;
    dataLines++;
  };

  /** Processes the complete lines of `text`; returns what follows the last one. */
  const lines = (text: string): string => {
    let from = 0;
    const length = text.length;
    if (text.indexOf('\r') === -1) {
      let lf = text.indexOf('\n');
      while (lf !== -1) {
        line(text, from, lf);
        from = lf + 1;
        lf = text.indexOf('\n', from);
      }
      return from === 0 ? text : text.slice(from);
    }
    for (let i = 0; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c === LF) {
        line(text, from, i);
        from = i + 1;
      } else if (c === CR) {
        if (i === length - 1) break;
        line(text, from, i);
        if (text.charCodeAt(i + 1) === LF) i++;
        from = i + 1;
      }
    }
    return text.slice(from);
  };

  return {
    push(bytes) {
      let text = decoder.decode(bytes, { stream: true });
      if (text === '') return;
      if (firstText) {
        firstText = false;
        if (text.charCodeAt(0) === 239 && text.charCodeAt(1) === 187 && text.charCodeAt(2) === 191) text = text.slice(3);
      }
      if (pending === '') {
        pending = lines(text);
        return;
      }
      pending += text;
      if (text.indexOf('\n') === -1 && text.indexOf('\r') === -1) return;
      const input = pending;
      pending = '';
      pending = lines(input);
    },
  };
}
