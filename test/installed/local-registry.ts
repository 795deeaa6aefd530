/**
 * A registry on loopback that publishes one tarball as `service-mcp` and passes every other
 * request through to the real registry, so that `npx -y service-mcp`, exactly as the README
 * writes it, can run before the package is published. Its tarball URL carries the content's
 * hash: npx reinstalls when it changes instead of reusing an earlier test's copy.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalRegistry {
  url: string;
  close(): Promise<void>;
}

export async function startLocalRegistry(
  tarball: string,
  manifest: { name: string; version: string },
  upstream: string,
): Promise<LocalRegistry> {
  const bytes = readFileSync(tarball);
  const sha1 = createHash('sha1').update(bytes).digest('hex');
  const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
  const file = `${manifest.name}-${manifest.version}-${sha1.slice(0, 12)}.tgz`;
  let origin = '';
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '/').split('?')[0]!;
    if (path === `/${manifest.name}`) {
      const version = { ...manifest, _id: `${manifest.name}@${manifest.version}` };
      const body = {
        name: manifest.name,
        'dist-tags': { latest: manifest.version },
        versions: {
          [manifest.version]: {
            ...version,
            dist: { tarball: `${origin}/${manifest.name}/-/${file}`, shasum: sha1, integrity },
          },
        },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    if (path === `/${manifest.name}/-/${file}`) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
      return;
    }
    // Everything else (the dependencies' documents and tarballs) as the real registry has it.
    fetch(new URL(req.url ?? '/', upstream), { headers: { accept: req.headers.accept ?? '*/*' } })
      .then(async (answer) => {
        const content = Buffer.from(await answer.arrayBuffer());
        res
          .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
          .end(content);
      })
      .catch((error: unknown) => res.writeHead(502).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
