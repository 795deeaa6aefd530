/**
 * deploy/compose.yaml, the README's scale-out topology: parsed as YAML (aliases resolved) and
 * checked for three replicas of serve --http that share one Redis, and a load balancer that
 * spreads requests over all three.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: string[];
}

const compose = parse(readFileSync(new URL('../../deploy/compose.yaml', import.meta.url), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  configs: Record<string, { content: string }>;
};

describe('deploy/compose.yaml', () => {
  const replicas = Object.entries(compose.services).filter(([, s]) => s.command?.includes('serve'));

  it('runs three replicas of serve --http on every interface, each with the same Redis URL and API origin', () => {
    expect(replicas.map(([name]) => name)).toEqual(['replica-1', 'replica-2', 'replica-3']);
    for (const [, service] of replicas) {
      expect(service.command).toEqual(['serve', '--http', '--host', '0.0.0.0', '--port', '3333', '--allowed-hosts', 'localhost,lb']);
      expect(service.environment?.SERVICE_MCP_REDIS_URL).toBe('redis://redis:6379');
      expect(service.environment?.SERVICE_MCP_BASE_URL).toMatch(/^\$\{API_BASE_URL/);
      expect(service.build).toEqual({ context: '.', dockerfile: 'Dockerfile' });
    }
  });

  it('builds the replicas from this tree\'s packed tarball, never a package fetched by name', () => {
    const dockerfile = readFileSync(new URL('../../deploy/Dockerfile', import.meta.url), 'utf8');
    const instructions = dockerfile.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
    expect(instructions[0]).toMatch(/^FROM node:(22|24|26)[-\w.]*$/);
    expect(instructions).toContain('COPY service-mcp-*.tgz /tmp/');
    expect(instructions.find((line) => line.startsWith('RUN npm install'))).toMatch(/npm install --global .*\/tmp\/service-mcp-\*\.tgz/);
    expect(instructions.at(-1)).toBe('ENTRYPOINT ["service-mcp"]');
    // The header says how: pack into deploy/, then compose up with --build.
    const header = readFileSync(new URL('../../deploy/compose.yaml', import.meta.url), 'utf8');
    expect(header).toContain('npm pack --pack-destination deploy');
    expect(header).toContain('docker compose -f deploy/compose.yaml up --build');
    expect(header).not.toMatch(/service-mcp@/);
  });

  it('has a Redis bounded by maxmemory with LRU eviction, and nothing written to disk', () => {
    const redis = compose.services.redis!;
    expect(redis.image).toMatch(/^redis:/);
    expect(redis.command).toEqual(expect.arrayContaining(['--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru']));
  });

  it('puts a load balancer in front of all three replicas, passing SSE through unbuffered', () => {
    const lb = compose.services.lb!;
    expect(lb.ports).toEqual(['8080:80']);
    expect(lb.depends_on).toEqual(['replica-1', 'replica-2', 'replica-3']);
    const nginx = compose.configs.nginx!.content;
    for (const [name] of replicas) expect(nginx).toContain(`server ${name}:3333`);
    expect(nginx).toMatch(/proxy_buffering off;/);
    // $$ is Compose's escape for a literal $: nginx must see $host.
    expect(nginx).toContain('proxy_set_header Host $$host;');
  });
});
