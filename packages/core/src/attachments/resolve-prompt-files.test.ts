import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { userMessages } from './file-reference.js';
import { resolvePromptFiles } from './resolve-prompt-files.js';

const file = (n: number, mediaType = 'image/png') => ({ type: 'file' as const, attachmentId: `att_${n}`, mediaType, filename: `f${n}.png` });
const bytes = (n: number) => new Uint8Array([n, n, n]);
const load = async (id: string) => bytes(Number(id.slice(4)));

function history(count: number): ModelMessage[] {
  return Array.from({ length: count }, (_, i) => [...userMessages(`message ${i}`, [file(i)]), { role: 'assistant' as const, content: 'ok' }]).flat();
}

describe('resolvePromptFiles', () => {
  it('sends the bytes of every file the model reads while they fit the budget', async () => {
    const out = await resolvePromptFiles(history(3), { inputs: ['text', 'image'], load, budget: 100_000, keep: new Set() });
    const files = out.flatMap((message) => (Array.isArray(message.content) ? (message.content as Array<{ type: string }>) : [])).filter((part) => part.type === 'file');
    expect(files.map((part) => (part as unknown as { data: Uint8Array }).data)).toEqual([bytes(0), bytes(1), bytes(2)]);
  });

  it('replaces the oldest files by their placeholder past the budget (each image counts 6,000 characters); new ones are always kept', async () => {
    const messages = history(4);
    const out = await resolvePromptFiles(messages, { inputs: ['text', 'image'], load, budget: 14_000, keep: new Set(['att_0']) });
    const kinds = out
      .filter((message) => message.role === 'user')
      .map((message) => (message.content as Array<{ type: string; text?: string }>).map((part) => (part.type === 'file' ? 'bytes' : part.text!.startsWith('[Attached') ? 'placeholder' : 'text')));
    // att_3 and att_2 (newest) fit; att_1 does not; att_0 is kept as this turn's own.
    expect(kinds).toEqual([
      ['text', 'bytes'],
      ['text', 'placeholder'],
      ['text', 'bytes'],
      ['text', 'bytes'],
    ]);
  });

  it('a file type the model cannot read is its placeholder, without reading its bytes', async () => {
    let reads = 0;
    const out = await resolvePromptFiles(userMessages('', [file(1, 'application/pdf')]), {
      inputs: ['text', 'image'],
      load: async () => (reads++, bytes(1)),
      budget: 100_000,
      keep: new Set(['att_1']),
    });
    expect(out).toEqual([{ role: 'user', content: [{ type: 'text', text: '[Attached file "f1.png" (application/pdf) is not shown to this model]' }] }]);
    expect(reads).toBe(0);
  });
});
