import type { UIMessageChunk } from 'ai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { UiMessageChunk } from './ui-message-chunk.js';

describe('UiMessageChunk', () => {
  it('is assignable to and from the UIMessageChunk of ai@5 (checked by tsc on this file)', () => {
    const toSdk = (chunk: UiMessageChunk): UIMessageChunk => chunk;
    const fromSdk = (chunk: UIMessageChunk): UiMessageChunk => chunk;
    expectTypeOf<UiMessageChunk['type']>().toEqualTypeOf<UIMessageChunk['type']>();
    const abort: UiMessageChunk = { type: 'abort' };
    expect(fromSdk(toSdk(abort))).toBe(abort);
  });

  it('narrows by type like the SDK union (an exhaustive switch compiles)', () => {
    const name = (chunk: UiMessageChunk): string => {
      switch (chunk.type) {
        case 'text-delta':
          return chunk.delta;
        case 'tool-input-error':
          return chunk.errorText;
        default:
          return chunk.type;
      }
    };
    expect(name({ type: 'text-delta', id: 't', delta: 'd' })).toBe('d');
  });
});
