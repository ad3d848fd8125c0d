import type { PageConfig } from '../create-site-handler.js';

const TOKEN_KEY = 'chatwire.example.token';

/** The signed-in state of the page: a JWT kept in localStorage so a reload stays signed in. */
export interface Session {
  token: string | null;
  userId: string | null;
}

export function loadSession(): Session {
  const token = localStorage.getItem(TOKEN_KEY);
  return { token, userId: token ? subjectOf(token) : null };
}

export function saveSession(token: string | null): Session {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
  return { token, userId: token ? subjectOf(token) : null };
}

/** Dev mode: asks the example server for a token. Otherwise the user pastes a JWT from their auth system. */
export async function signIn(config: PageConfig, form: { name: string; token: string }): Promise<Session> {
  if (!config.devSignIn) {
    const token = form.token.trim();
    if (!token) throw new Error('Paste a JWT signed with the server key');
    return saveSession(token);
  }
  const response = await fetch('/dev/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: form.name }),
  });
  if (!response.ok) throw new Error(`Sign-in failed (${response.status})`);
  const { token } = (await response.json()) as { token: string };
  return saveSession(token);
}

/** The `sub` claim, for display only (the server verifies the token). */
function subjectOf(token: string): string | null {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}
