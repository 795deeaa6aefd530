/** server.json (MCP registry metadata) must agree with package.json and with the CLI's options. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTION_TABLE } from '../../src/config/options.js';
import { SERVER_INFO } from '../../src/mcp/capabilities.js';

const read = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as Record<string, any>;
const pkg = read('package.json');
const server = read('server.json');

describe('server.json', () => {
  it('names the package and its exact version, as package.json does', () => {
    expect(server.$schema).toMatch(
      /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/,
    );
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    expect(server.packages).toHaveLength(1);
    expect(server.packages[0]).toMatchObject({
      registryType: 'npm',
      identifier: pkg.name,
      version: pkg.version,
      transport: { type: 'stdio' },
    });
  });

  it('lists every environment variable the CLI reads, each with a description', () => {
    const names = server.packages[0].environmentVariables.map((v: { name: string }) => v.name);
    expect(names).toEqual(OPTION_TABLE.map((o) => o.env));
    for (const variable of server.packages[0].environmentVariables)
      expect(variable.description.length).toBeGreaterThan(10);
  });

  it('ships in the package', () => {
    expect(pkg.files).toContain('server.json');
  });
});

describe('identity', () => {
  it("serverInfo carries the registry entry's title and website, and the icon shipped in the package", () => {
    expect(SERVER_INFO.title).toBe(server.title);
    expect(SERVER_INFO.websiteUrl).toBe(server.websiteUrl);
    expect(pkg.homepage).toBe(server.websiteUrl);
    const [icon] = SERVER_INFO.icons;
    expect(icon!.mimeType).toBe('image/svg+xml');
    const svg = Buffer.from(icon!.src.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8');
    expect(svg).toBe(readFileSync(new URL('../../assets/icon.svg', import.meta.url), 'utf8').trim());
    expect(pkg.files).toContain('assets/icon.svg');
  });
});
