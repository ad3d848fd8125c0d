import { describe, expect, it } from 'vitest';
import { createExampleApp, ExampleConfigError } from './create-example-app.js';

const quiet = { demoChunkDelayMs: 0, onError: () => undefined };
const SECRET = 'an-example-secret-that-is-long-enough-1234';

describe('createExampleApp', () => {
  it('refuses to start in production without a JWT key', async () => {
    await expect(createExampleApp({ NODE_ENV: 'production' }, quiet)).rejects.toThrow(ExampleConfigError);
    await expect(createExampleApp({ NODE_ENV: 'production' }, quiet)).rejects.toThrow(/CHATWIRE_JWT_SECRET/);
  });

  it('turns the dev sign-in off once a secret is configured', async () => {
    const example = await createExampleApp({ CHATWIRE_JWT_SECRET: SECRET, NODE_ENV: 'production' }, quiet);
    expect(example.site.matches('/dev/sign-in')).toBe(false);
    const config = (await (await example.site(new Request('http://localhost/config.json'))).json()) as { devSignIn: boolean };
    expect(config.devSignIn).toBe(false);
    expect(example.notices.join('\n')).not.toContain('DEV SIGN-IN');
  });

  it('says loudly that the demo model and the dev sign-in are in use', async () => {
    const example = await createExampleApp({}, quiet);
    const notices = example.notices.join('\n');
    expect(notices).toContain('DEMO MODEL');
    expect(notices).toContain('DEV SIGN-IN');
    expect(example.port).toBe(3000);
  });

  it('uses a configured provider instead of the demo model', async () => {
    const example = await createExampleApp({ PROVIDER_C_BASE_URL: 'http://127.0.0.1:9/v1' }, quiet);
    const config = (await (await example.site(new Request('http://localhost/config.json'))).json()) as {
      demoModel: boolean;
      models: Array<{ modelId: string; available: boolean }>;
    };
    expect(config.demoModel).toBe(false);
    expect(config.models.filter((m) => m.available).map((m) => m.modelId)).toEqual(['gamma-oss-120b']);
    expect(example.notices.join('\n')).not.toContain('DEMO MODEL');
  });

  it('rejects a PORT that is not a port number', async () => {
    await expect(createExampleApp({ PORT: 'eighty' }, quiet)).rejects.toThrow(/PORT/);
  });

  it('issues dev tokens the chat routes accept, with a users row for user.current', async () => {
    const example = await createExampleApp({}, quiet);
    const signIn = await example.site(
      new Request('http://localhost/dev/sign-in', { method: 'POST', body: JSON.stringify({ name: 'Ada L.' }) }),
    );
    const { token, userId } = (await signIn.json()) as { token: string; userId: string };
    expect(userId).toBe('dev-ada-l');
    const chats = await example.chat(new Request('http://localhost/api/ai/chats', { headers: { authorization: `Bearer ${token}` } }));
    expect(chats.status).toBe(200);
    const user = await example.chat.service.store.asServer().get('users', userId);
    expect(user.data).toEqual({ userId, name: 'Ada L.' });
  });
});
