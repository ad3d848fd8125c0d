import type { UIMessageChunk } from 'ai';
import type { UIMessageChunk as UIMessageChunkAi6 } from 'ai-v6';
import type { UIMessageChunk as UIMessageChunkAi7 } from 'ai-v7';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { UiMessageChunk } from './ui-message-chunk.js';

/** ai@5's chunks but a `finish` with `unknown`, which the decoder turns into `other`. */
type Ai5Finish = Extract<UIMessageChunk, { type: 'finish' }>;
type Ai5ChunkButUnknown =
  | Exclude<UIMessageChunk, Ai5Finish>
  | (Omit<Ai5Finish, 'finishReason'> & { finishReason?: Exclude<Ai5Finish['finishReason'], 'unknown'> });

describe('UiMessageChunk', () => {
  it('is assignable to the UIMessageChunk of ai@5, ai@6 and ai@7, and ai@5 (but finishReason unknown) to it (checked by tsc on this file)', () => {
    const toSdk = (chunk: UiMessageChunk): UIMessageChunk => chunk;
    const toAi6 = (chunk: UiMessageChunk): UIMessageChunkAi6 => chunk;
    const toAi7 = (chunk: UiMessageChunk): UIMessageChunkAi7 => chunk;
    const fromSdk = (chunk: Ai5ChunkButUnknown): UiMessageChunk => chunk;
    expectTypeOf<UiMessageChunk['type']>().toEqualTypeOf<UIMessageChunk['type']>();
    expectTypeOf<'unknown'>().not.toMatchTypeOf<NonNullable<Extract<UiMessageChunk, { type: 'finish' }>['finishReason']>>();
    const abort: UiMessageChunk = { type: 'abort' };
    expect([toSdk(abort), fromSdk(abort)]).toEqual([abort, abort]);
    expect([toAi6(abort), toAi7(abort)]).toEqual([abort, abort]);
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
