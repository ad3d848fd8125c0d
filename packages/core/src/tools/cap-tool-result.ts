import { ChatwireError } from '@chatwire/storage';

/** Spec 8.2: a tool result is at most this many bytes (UTF-8 of its JSON text) unless configured. */
export const DEFAULT_TOOL_RESULT_CAP = 30_000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Returns `output` unchanged when its JSON text (or the string itself) fits in `capBytes` UTF-8 bytes.
 * Otherwise returns a string of at most `capBytes` bytes: the start of the JSON text, never splitting
 * a character, followed by a marker saying how many bytes were cut and how to ask for less (`hint`):
 *
 * `[chatwire: result cut to fit 30000 bytes: showing the first 29790 of 81234 bytes, 51444 bytes cut. Ask for less: ...]`
 */
export function capToolResult(output: unknown, capBytes: number, hint: string, toolName = 'tool'): unknown {
  let text: string | undefined;
  try {
    text = typeof output === 'string' ? output : JSON.stringify(output);
  } catch (error) {
    throw new ChatwireError('INTERNAL', `${toolName}: returned a value that cannot be sent as JSON`, { cause: error });
  }
  if (text === undefined) return output;
  const bytes = encoder.encode(text);
  if (bytes.length <= capBytes) return output;

  const marker = (kept: string, cut: string): string =>
    `\n[chatwire: result cut to fit ${capBytes} bytes: showing the first ${kept} of ${bytes.length} bytes, ` +
    `${cut} bytes cut. ${hint}]`;
  // Both numbers have at most as many digits as the total: this marker is at least as long as the real one.
  const widest = '9'.repeat(String(bytes.length).length);
  let kept = Math.max(0, capBytes - encoder.encode(marker(widest, widest)).length);
  // bytes[kept] is the first byte left out; a continuation byte there means a character would be split.
  while (kept > 0 && ((bytes[kept] ?? 0) & 0xc0) === 0x80) kept--;
  return decoder.decode(bytes.subarray(0, kept)) + marker(String(kept), String(bytes.length - kept));
}
