import { convertToLanguageModelPrompt } from 'ai/internal';
import { describe, expect, it, vi } from 'vitest';
import { refuseDownloads } from './refuse-downloads.js';

describe('refuseDownloads', () => {
  it('bytes pass through the prompt conversion untouched; nothing is fetched', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const bytes = new Uint8Array([137, 80, 78, 71]);
    const prompt = await convertToLanguageModelPrompt({
      prompt: { system: undefined, messages: [{ role: 'user', content: [{ type: 'file', data: bytes, mediaType: 'image/png' }] }] },
      supportedUrls: {},
      download: refuseDownloads,
    });
    expect(prompt[0]).toMatchObject({ role: 'user', content: [{ type: 'file', data: bytes, mediaType: 'image/png' }] });
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  it('a URL in a user message is an error naming its scheme, and no request is made', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await expect(
      convertToLanguageModelPrompt({
        prompt: { system: undefined, messages: [{ role: 'user', content: [{ type: 'image', image: new URL('http://127.0.0.1:9/cat.png') }] }] },
        supportedUrls: {},
        download: refuseDownloads,
      }),
    ).rejects.toThrow(/does not download http:\/\/ URLs/);
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });
});
