/** Binding a node:http server, for the MCP server and the offline API alike. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Resolves with the port bound (the one asked for, or the ephemeral one given for 0); rejects when binding fails. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
