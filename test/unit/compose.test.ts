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
      expect(service.command).toEqual(expect.arrayContaining(['service-mcp@latest', 'serve', '--http', '--host', '0.0.0.0', '--port', '3333']));
      expect(service.environment?.SERVICE_MCP_REDIS_URL).toBe('redis://redis:6379');
      expect(service.environment?.SERVICE_MCP_BASE_URL).toMatch(/^\$\{API_BASE_URL/);
      expect(service.image).toMatch(/^node:22/);
    }
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
