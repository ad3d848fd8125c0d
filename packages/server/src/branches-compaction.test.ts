import type { Summarizer } from '@chatwire/core';
import { afterAll, describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';
import { storeBackends } from './test-support/store-backends.js';

const BUDGET = 4_000;

for (const backend of storeBackends('branches_compaction')) {
  describe.skipIf(backend.skipReason)(`tree history and cached summaries on ${backend.name} ${backend.skipReason}`, () => {
    afterAll(() => backend.close());

    it('a summary is reused by branches sharing the prefix it covers, never on a branch that left it before', async () => {
      const summaries: string[] = [];
      const summarizer: Summarizer = async ({ messages }) => {
        const first = JSON.stringify(messages[0]).match(/(trunk|side) \d+/)?.[0];
        summaries.push(`summary #${summaries.length + 1} from ${first}`);
        return summaries.at(-1)!;
      };
      const scripted = scriptedModel([textStep('Noted.')]);
      const f = chatFixture(scripted.model, {
        driver: backend.driver(),
        handler: { history: 'tree', summarizer, compaction: { contextBudget: BUDGET, minKept: 2 } },
      });
      const chatId = await f.createChat('alice');
      const say = async (body: Record<string, unknown>) => {
        const res = await f.request('POST', '/chat', { body: { chatId, ...body } });
        expect(res.status).toBe(200);
        const { chunks } = await readSse(res);
        return { id: res.headers.get('x-asst-id')!, start: chunks[0]! };
      };
      const long = (label: string) => `${label}: ${'lorem ipsum '.repeat(60)}`;
      const lastPrompt = () => JSON.stringify(scripted.calls.at(-1)!.prompt);

      let n = 0;
      while (summaries.length === 0 && n < 10) await say({ userMessageId: `t${++n}`, content: long(`trunk ${n}`) });
      expect(summaries).toEqual(['summary #1 from trunk 1']);

      // A regenerate of the last question shares the summarized prefix: the summary is reused, not redone.
      await say({ trigger: 'regenerate' });
      expect(summaries).toHaveLength(1);
      expect(lastPrompt()).toContain('summary #1 from trunk 1');

      // An edit of the first question leaves the summarized prefix: the summary never follows it, and the
      // new branch, once long, is summarized from its own messages.
      await say({ trigger: 'edit', userMessageId: 't1', content: long('side 1') });
      expect(lastPrompt()).not.toContain('summary #');
      expect(lastPrompt()).not.toContain('trunk');
      let m = 1;
      while (summaries.length === 1 && m < 10) await say({ userMessageId: `s${++m}`, content: long(`side ${m}`) });
      expect(summaries).toEqual(['summary #1 from trunk 1', 'summary #2 from side 1']);
      expect(lastPrompt()).toContain('summary #2 from side 1');
      expect(lastPrompt()).not.toContain('trunk');
      await say({ userMessageId: `s${++m}`, content: long(`side ${m}`) });
      expect(lastPrompt()).toContain('summary #2');
      expect(lastPrompt()).not.toContain('summary #1');

      // Back on the trunk, its own summary is reused again.
      const back = await f.request('POST', `/chats/${chatId}/active`, { body: { messageId: 't1' } });
      expect(back.status).toBe(200);
      await say({ userMessageId: 'after-switch', content: long('trunk again') });
      expect(lastPrompt()).toContain('summary #1 from trunk 1');
      expect(lastPrompt()).not.toContain('side');
      expect(summaries).toHaveLength(2);

      // Every prompt of the tree, deeper than the budget, stays within it.
      for (const call of scripted.calls) expect(JSON.stringify(call.prompt.filter((p) => p.role !== 'system')).length).toBeLessThanOrEqual(BUDGET);
    });
  });
}
