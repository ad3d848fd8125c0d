import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningServer } from './run-example.js';

/** Starts a node:http server on `port` (all interfaces) and resolves with the bound port. */
export function listenNode(server: Server, port: number): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
