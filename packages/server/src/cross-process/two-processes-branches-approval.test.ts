import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatClient, parseSse } from './chat-client.js';
import { scratchDatabase, type ScratchDatabase } from './scratch-database.js';
import { spawnChildServer, type ChildServer } from './spawn-child-server.js';

// Branches and tool approval across two real server processes on one PostgreSQL: two tabs of one user,
// each talking to its own process, race a branch switch against a submit, and an approval against itself.

const databaseUrl = process.env.CHATWIRE_TEST_DATABASE_URL;
const skip = databaseUrl ? '' : '(skipped: CHATWIRE_TEST_DATABASE_URL not set)';
const PREFIX = `cw_xbr_${process.pid}_`;

type Json = Record<string, any>;

describe.skipIf(skip !== '')(`branches and approval across two server processes on one PostgreSQL ${skip}`, () => {
  let db: ScratchDatabase;
  const children: ChildServer[] = [];
  let treeA: ChildServer, treeB: ChildServer, approvalA: ChildServer, approvalB: ChildServer;
  const folder = mkdtempSync(join(tmpdir(), 'cw-xbr-'));
  const approvalLog = join(folder, 'purges.log');
  const start = async (name: string, env: Record<string, string>) => {
    const child = await spawnChildServer(
      { CW_DATABASE_URL: databaseUrl!, CW_TABLE_PREFIX: PREFIX, CW_APP_NAME: `${PREFIX}${name}`, CW_WORDS: '3', CW_DELAY_MS: '5', ...env },
      { startTimeoutMs: 90_000 },
    );
    children.push(child);
    return child;
  };
  const alice = chatClient('alice');

  beforeAll(async () => {
    db = scratchDatabase(databaseUrl!, PREFIX);
    [treeA, treeB, approvalA, approvalB] = await Promise.all([
      start('tree-a', { CW_HISTORY: 'tree' }),
      start('tree-b', { CW_HISTORY: 'tree' }),
      start('approval-a', { CW_APPROVAL_LOG: approvalLog }),
      start('approval-b', { CW_APPROVAL_LOG: approvalLog }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(children.splice(0).map((child) => child.kill()));
    await db?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('a switch on B races a submit on A, six rounds: each answers 200 or 409 CHAT_BUSY, and the stored tree stays one chain per path', { timeout: 60_000 }, async () => {
    const chatId = await alice.createChat(treeA.base);
    await (await alice.submit(treeA.base, chatId, 'q0', 'first')).text();
    const statuses: number[] = [];
    for (let round = 1; round <= 6; round++) {
      const [switched, submitted] = await Promise.all([
        alice.request(treeB.base, 'POST', `/chats/${chatId}/active`, { messageId: 'q0' }),
        alice.submit(treeA.base, chatId, `q${round}`, `round ${round}`),
      ]);
      statuses.push(switched.status, submitted.status);
      for (const res of [switched, submitted]) {
        const text = await res.text();
        if (res.status === 409) expect((JSON.parse(text) as Json).error.code).toBe('CHAT_BUSY');
        else expect(res.status).toBe(200);
      }
    }
    // At least one submit got through after the first question, so the tree has siblings to check.
    expect(statuses.filter((status, i) => i % 2 === 1 && status === 200).length).toBeGreaterThan(0);
    const rows = await db.rows('ai-messages', chatId);
    const byId = new Map(rows.map((row) => [row.recordId, row]));
    // Every answer's parent is a question of the chat, every later question's parent an answer of it.
    for (const row of rows) {
      const parentId = row.data.parentId as string | null;
      if (row.data.role === 'assistant') expect(byId.get(parentId!)?.data.role).toBe('user');
      else if (parentId !== null) expect(byId.get(parentId)?.data.role).toBe('assistant');
    }
    // Both processes read the same active path: one chain from the root to the chat's active leaf.
    const read = async (child: ChildServer) => (await (await alice.request(child.base, 'GET', `/chats/${chatId}`)).json()) as { messages: Json[] };
    const [fromA, fromB] = await Promise.all([read(treeA), read(treeB)]);
    expect(fromB.messages.map((m) => m.recordId)).toEqual(fromA.messages.map((m) => m.recordId));
    fromA.messages.forEach((m, i) => expect(m.branch.parentId).toBe(i === 0 ? null : fromA.messages[i - 1]!.recordId));
    const [chat] = (await db.rows('ai-chats')).filter((row) => row.recordId === chatId);
    expect(fromA.messages.at(-1)!.recordId).toBe(chat!.data.activeLeafId);
  });

  it('a switch on B while A streams is 409 CHAT_BUSY; after the turn, B switches to the first answer and A reads that path', { timeout: 60_000 }, async () => {
    const chatId = await alice.createChat(treeA.base);
    await (await alice.submit(treeA.base, chatId, 'p0', 'hello')).text();
    const regenerate = (base: string) => alice.request(base, 'POST', '/chat', { chatId, trigger: 'regenerate' });
    const first = (await db.rows('ai-messages', chatId)).find((row) => row.data.role === 'assistant')!;
    const second = await regenerate(treeA.base);
    expect(second.status).toBe(200);
    const secondId = second.headers.get('x-asst-id');
    await second.text();
    const reading = await alice.request(treeA.base, 'GET', `/chats/${chatId}`);
    const path = ((await reading.json()) as { messages: Json[] }).messages;
    expect(path.map((m) => m.recordId)).toEqual(['p0', secondId]);
    expect(path[1]!.branch).toMatchObject({ index: 1, count: 2, prevId: first.recordId, nextId: null });

    const third = await alice.request(treeA.base, 'POST', '/chat', { chatId, trigger: 'regenerate' });
    expect(third.status).toBe(200);
    const busy = await alice.request(treeB.base, 'POST', `/chats/${chatId}/active`, { messageId: first.recordId });
    const thirdText = await third.text();
    // The third answer is 3 words at 5 ms: the switch may land after it ended; then it is a 200.
    if (busy.status === 409) expect(((await busy.json()) as Json).error.code).toBe('CHAT_BUSY');
    else expect(busy.status).toBe(200);
    expect(parseSse(thirdText).done).toBe(true);

    const switched = await alice.request(treeB.base, 'POST', `/chats/${chatId}/active`, { messageId: first.recordId });
    expect(switched.status).toBe(200);
    const onA = ((await (await alice.request(treeA.base, 'GET', `/chats/${chatId}`)).json()) as { messages: Json[] }).messages;
    expect(onA.map((m) => m.recordId)).toEqual(['p0', first.recordId]);
    expect(onA[1]!.branch).toMatchObject({ index: 0, count: 3, prevId: null });
  });

  it('two approvals of the same call, one to each process: one continues, the other is 409, and the tool runs once', { timeout: 60_000 }, async () => {
    const chatId = await alice.createChat(approvalA.base);
    const paused = await alice.submit(approvalA.base, chatId, 'u1', 'purge Milk');
    expect(paused.status).toBe(200);
    const { chunks } = parseSse(await paused.text());
    expect(chunks.at(-2)).toMatchObject({ type: 'data-tool-approval', id: 'call_purge' });
    const approve = (base: string) =>
      alice.request(base, 'POST', '/chat', { chatId, trigger: 'approval', approvals: [{ toolCallId: 'call_purge', approved: true }] });
    const [onA, onB] = await Promise.all([approve(approvalA.base), approve(approvalB.base)]);
    expect([onA.status, onB.status].sort()).toEqual([200, 409]);
    const [winner, loser] = onA.status === 200 ? [onA, onB] : [onB, onA];
    expect(['CHAT_BUSY', 'APPROVAL_DECIDED']).toContain(((await loser.json()) as Json).error.code);
    const continued = parseSse(await winner.text());
    expect(continued.done).toBe(true);
    expect(continued.chunks.find((c) => c.type === 'tool-output-available')).toMatchObject({ toolCallId: 'call_purge', output: { purged: 'Milk' } });
    expect(continued.chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta).join('')).toBe('Purged.');
    expect(readFileSync(approvalLog, 'utf8').trim().split('\n')).toHaveLength(1);
    // Asked again of either process afterwards: decided, and still one run.
    for (const child of [approvalA, approvalB]) {
      const late = await approve(child.base);
      expect(late.status).toBe(409);
      expect(((await late.json()) as Json).error.code).toBe('APPROVAL_DECIDED');
    }
    expect(readFileSync(approvalLog, 'utf8').trim().split('\n')).toHaveLength(1);
    const messages = await db.rows('ai-messages', chatId);
    expect(messages.map((m) => [m.data.role, m.data.status])).toEqual([
      ['user', undefined],
      ['assistant', 'complete'],
    ]);
  });

  it('a denial on B of a call paused on A: the tool never runs, and the model is told it was declined', { timeout: 60_000 }, async () => {
    const before = readFileSync(approvalLog, { encoding: 'utf8', flag: 'a+' });
    const chatId = await alice.createChat(approvalA.base);
    const paused = await alice.submit(approvalA.base, chatId, 'u2', 'purge Eggs');
    expect(paused.status).toBe(200);
    expect(parseSse(await paused.text()).chunks.at(-2)).toMatchObject({ type: 'data-tool-approval', id: 'call_purge' });
    const denied = await alice.request(approvalB.base, 'POST', '/chat', { chatId, trigger: 'approval', approvals: [{ toolCallId: 'call_purge', approved: false }] });
    expect(denied.status).toBe(200);
    const { chunks, done } = parseSse(await denied.text());
    expect(done).toBe(true);
    expect(chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta).join('')).toBe('Kept.');
    expect(readFileSync(approvalLog, 'utf8')).toBe(before);
  });
});
