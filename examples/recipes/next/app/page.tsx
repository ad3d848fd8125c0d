'use client';

import { useChat } from '@ai-sdk/react';
import { createChatwireTransport } from '@chatwire/client';
import { useState } from 'react';

// Asked before every request; here the development sign-in route, in your app your session's token.
const getToken = async () => (await fetch('/api/dev-token', { method: 'POST' })).text();
const transport = createChatwireTransport({ baseUrl: '/api/ai', getToken });

export default function Page() {
  const { messages, sendMessage, stop, status, error } = useChat({ transport });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';
  return (
    <main>
      {messages.map((m) => (
        <p key={m.id}>
          <b>{m.role}:</b> {m.parts.map((p, i) => (p.type === 'text' ? <span key={i}>{p.text}</span> : null))}
        </p>
      ))}
      {error && <p role="alert">{error.message}</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!input.trim()) return;
          void sendMessage({ text: input });
          setInput('');
        }}
      >
        <input value={input} onChange={(e) => setInput(e.target.value)} disabled={busy} aria-label="Message" />
        <button type="submit" disabled={busy}>Send</button>
        <button type="button" disabled={!busy} onClick={() => void stop()}>Stop</button>
      </form>
    </main>
  );
}
