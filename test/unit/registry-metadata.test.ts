/** server.json (MCP registry metadata) must agree with package.json and with the CLI's options. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTION_TABLE } from '../../src/config.js';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as Record<string, any>;
const pkg = read('package.json');
const server = read('server.json');

describe('server.json', () => {
  it('names the package and its exact version, as package.json does', () => {
    expect(server.$schema).toMatch(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/);
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    expect(server.packages).toHaveLength(1);
    expect(server.packages[0]).toMatchObject({ registryType: 'npm', identifier: pkg.name, version: pkg.version, transport: { type: 'stdio' } });
  });

  it('lists every environment variable the CLI reads, each with a description', () => {
    const names = server.packages[0].environmentVariables.map((v: { name: string }) => v.name);
    expect(names).toEqual(OPTION_TABLE.map((o) => o.env));
    for (const variable of server.packages[0].environmentVariables) expect(variable.description.length).toBeGreaterThan(10);
  });

  it('ships in the package', () => {
    expect(pkg.files).toContain('server.json');
  });
});
