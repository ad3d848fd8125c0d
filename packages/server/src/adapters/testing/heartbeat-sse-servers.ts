import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { withHeartbeat, type HeartbeatOptions } from '../../http/with-heartbeat.js';
import type { ChatHandlerLike } from '../chat-handler-like.js';
import { toNodeListener } from '../node.js';

/**
 * node:http servers answering every request with `withHeartbeat(body())` as SSE through the node adapter, and raw
 * socket clients for them (tests of heartbeats, idle clients and disconnects); `closeAll` ends what was opened.
 */
export function heartbeatSseServers() {
  const servers: Server[] = [];
  const clients: Socket[] = [];
  return {
    async serve(body: () => ReadableStream<Uint8Array>, options: HeartbeatOptions, errors: unknown[]): Promise<{ port: number; sockets: Socket[] }> {
      const handler: ChatHandlerLike = Object.assign(
        async () => new Response(withHeartbeat(body(), options), { headers: { 'content-type': 'text/event-stream' } }),
        { basePath: '/api/ai', matches: () => true },
      );
      const sockets: Socket[] = [];
      const server = createServer(toNodeListener(handler, { onError: (error) => void errors.push(error) }));
      server.on('connection', (socket) => sockets.push(socket));
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return { port: (server.address() as AddressInfo).port, sockets };
    },
    /** A raw `GET /api/ai/chat` on a new socket (errors ignored: tests close sockets on purpose). */
    get(port: number): Socket {
      const socket = connect(port, '127.0.0.1');
      clients.push(socket);
      socket.on('error', () => undefined);
      socket.write('GET /api/ai/chat HTTP/1.1\r\nHost: test\r\n\r\n');
      return socket;
    },
    /** The text a raw client read (latin1) once `done` says it has enough. */
    readUntil(client: Socket, done: (text: string) => boolean): Promise<string> {
      client.setEncoding('latin1');
      let text = '';
      return new Promise<string>((resolve) =>
        client.on('data', (chunk: string) => {
          text += chunk;
          if (done(text)) resolve(text);
        }),
      );
    },
    async closeAll(): Promise<void> {
      clients.splice(0).forEach((socket) => socket.destroy());
      await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())))));
    },
  };
}
