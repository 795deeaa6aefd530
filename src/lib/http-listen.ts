/** Binding a node:http server and naming its address, for the MCP server, the offline API and metrics alike. */
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

/** The bracketed form URL and Host headers use for IPv6 literals. */
export function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
