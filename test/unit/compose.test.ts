/**
 * deploy/compose.yaml, the README's scale-out topology: parsed as YAML (aliases resolved) and
 * checked for three replicas of serve --http that share one Redis, a load balancer that
 * spreads requests over all three, and a Prometheus that scrapes each replica's metrics port.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  secrets?: string[];
  ports?: string[];
  depends_on?: string[];
}

const compose = parse(readFileSync(new URL('../../deploy/compose.yaml', import.meta.url), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  configs: Record<string, { content: string }>;
  secrets: Record<string, { file: string }>;
};

describe('deploy/compose.yaml', () => {
  const replicas = Object.entries(compose.services).filter(([, s]) => s.command?.includes('serve'));

  it('runs three replicas of serve --http on every interface, each with the same Redis URL and API origin', () => {
    expect(replicas.map(([name]) => name)).toEqual(['replica-1', 'replica-2', 'replica-3']);
    for (const [, service] of replicas) {
      expect(service.command).toEqual([
        'serve',
        '--http',
        '--host',
        '0.0.0.0',
        '--port',
        '3333',
        '--allowed-hosts',
        'localhost,lb',
      ]);
      expect(service.environment?.SERVICE_MCP_REDIS_URL).toBe('redis://redis:6379');
      expect(service.environment?.SERVICE_MCP_BASE_URL).toMatch(/^\$\{API_BASE_URL/);
      expect(service.build).toEqual({ context: '.', dockerfile: 'Dockerfile' });
      // Metrics on their own port, on every interface of the Compose network, never published.
      expect(service.environment?.SERVICE_MCP_METRICS_PORT).toBe('9464');
      expect(service.environment?.SERVICE_MCP_METRICS_HOST).toBe('0.0.0.0');
      expect(service.ports).toBeUndefined();
    }
  });

  it("has a Prometheus scraping every replica's metrics port, its config valid for promtool, its UI on loopback only", () => {
    const prometheus = compose.services.prometheus!;
    expect(prometheus.image).toMatch(/^prom\/prometheus:v\d+\.\d+\.\d+$/);
    expect(prometheus.ports).toEqual(['127.0.0.1:9090:9090']);
    expect(prometheus.depends_on).toEqual(replicas.map(([name]) => name));
    const config = parse(compose.configs.prometheus!.content) as {
      scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }>;
    };
    expect(config.scrape_configs.flatMap((job) => job.static_configs.flatMap((s) => s.targets))).toEqual(
      replicas.map(([name]) => `${name}:9464`),
    );
    // Debian's promtool (.ci/run installs the prometheus package) checks it as Prometheus would read it.
    const dir = mkdtempSync(join(tmpdir(), 'service-mcp-compose-'));
    try {
      writeFileSync(join(dir, 'prometheus.yml'), compose.configs.prometheus!.content);
      const check = spawnSync('promtool', ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' });
      expect(check.error, "promtool could not be run (is Debian's prometheus package installed?)").toBeUndefined();
      expect(check.status, check.stdout + check.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("builds the replicas from this tree's packed tarball, never a package fetched by name", () => {
    const dockerfile = readFileSync(new URL('../../deploy/Dockerfile', import.meta.url), 'utf8');
    const instructions = dockerfile.split('\n').filter((line) => line.trim() && !line.startsWith('#'));
    expect(instructions[0]).toMatch(/^FROM node:(22|24|26)[-\w.]*$/);
    expect(instructions).toContain('COPY service-mcp-*.tgz /tmp/');
    expect(instructions.find((line) => line.startsWith('RUN npm install'))).toMatch(
      /npm install --global .*\/tmp\/service-mcp-\*\.tgz/,
    );
    expect(instructions.at(-1)).toBe('ENTRYPOINT ["service-mcp"]');
    // The header says how: pack into deploy/, then compose up with --build.
    const header = readFileSync(new URL('../../deploy/compose.yaml', import.meta.url), 'utf8');
    expect(header).toContain('npm pack --pack-destination deploy');
    expect(header).toContain('docker compose -f deploy/compose.yaml up --build');
    expect(header).not.toMatch(/service-mcp@/);
  });

  it('asks every caller for a bearer token from a Compose secret, and gives each a fair share shared through Redis', () => {
    expect(compose.secrets['service-mcp-tokens']).toEqual({ file: './tokens' });
    for (const [, service] of replicas) {
      expect(service.secrets).toEqual(['service-mcp-tokens']);
      expect(service.environment?.SERVICE_MCP_AUTH_TOKENS_FILE).toBe('/run/secrets/service-mcp-tokens');
      expect(service.environment?.SERVICE_MCP_PER_CLIENT_RATE).toBe('60:30');
    }
    // The tokens themselves are never committed.
    expect(readFileSync(new URL('../../.gitignore', import.meta.url), 'utf8')).toMatch(/^deploy\/tokens$/m);
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
