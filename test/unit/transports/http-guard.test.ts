import { describe, expect, it } from 'vitest';
import {
  buildPolicy,
  checkHost,
  checkOrigin,
  HttpOptionError,
  isLoopbackHost,
  parseHost,
  splitList,
} from '../../../src/transports/http-guard.js';

const loopback = buildPolicy({ host: '127.0.0.1', port: 3333 });

describe('Host allow-list', () => {
  it('admits the loopback names on the bound port only', () => {
    for (const host of ['localhost:3333', '127.0.0.1:3333', '[::1]:3333', 'LOCALHOST:3333'])
      expect(checkHost(host, loopback), host).toBeUndefined();
    for (const host of [
      'localhost:3334',
      'localhost',
      '127.0.0.1',
      'evil.example.com:3333',
      '127.0.0.1.nip.io:3333',
      '[::2]:3333',
    ])
      expect(checkHost(host, loopback), host).toMatch(/^Forbidden: Host/);
  });

  it('refuses a missing or malformed Host', () => {
    for (const host of [undefined, '', 'user@localhost:3333', 'localhost:3333/x', 'local host:3333', 'localhost:99999'])
      expect(checkHost(host, loopback), String(host)).toMatch(/^Forbidden/);
  });

  it('treats a Host without a port as port 80', () => {
    const on80 = buildPolicy({ host: '127.0.0.1', port: 80 });
    expect(checkHost('localhost', on80)).toBeUndefined();
    expect(checkHost('localhost:80', on80)).toBeUndefined();
    expect(checkHost('localhost:8080', on80)).toMatch(/^Forbidden/);
  });

  it('adds a specific bound address, never a wildcard', () => {
    expect(checkHost('10.0.0.5:3333', buildPolicy({ host: '10.0.0.5', port: 3333 }))).toBeUndefined();
    expect(checkHost('0.0.0.0:3333', buildPolicy({ host: '0.0.0.0', port: 3333 }))).toMatch(/^Forbidden/);
    expect(checkHost('[fd00::1]:3333', buildPolicy({ host: 'fd00::1', port: 3333 }))).toBeUndefined();
  });

  it('--allowed-hosts: a name matches any port, name:port only that port', () => {
    const policy = buildPolicy({
      host: '0.0.0.0',
      port: 3333,
      allowedHosts: ['mcp.example.com', 'other.example:8443'],
    });
    expect(checkHost('mcp.example.com', policy)).toBeUndefined();
    expect(checkHost('MCP.example.com:443', policy)).toBeUndefined();
    expect(checkHost('other.example:8443', policy)).toBeUndefined();
    expect(checkHost('other.example', policy)).toMatch(/^Forbidden/);
    expect(checkHost('localhost:3333', policy)).toBeUndefined();
  });

  it('rejects malformed entries with the flag named', () => {
    expect(() => buildPolicy({ host: '127.0.0.1', port: 1, allowedHosts: ['a b'] })).toThrow(HttpOptionError);
    expect(() => buildPolicy({ host: '127.0.0.1', port: 1, allowedHosts: ['https://x.example'] })).toThrow(
      /--allowed-hosts/,
    );
  });
});

describe('Origin allow-list', () => {
  it('passes a request without Origin (not a browser) and the loopback origins', () => {
    expect(checkOrigin(undefined, loopback)).toBeUndefined();
    for (const origin of ['http://localhost:3333', 'http://127.0.0.1:3333', 'http://[::1]:3333'])
      expect(checkOrigin(origin, loopback), origin).toBeUndefined();
  });

  it('refuses foreign, opaque and other-port origins', () => {
    for (const origin of [
      'http://evil.example.com',
      'null',
      'https://localhost:3333',
      'http://localhost:3334',
      'file://',
      'garbage',
    ])
      expect(checkOrigin(origin, loopback), origin).toMatch(/^Forbidden: Origin/);
  });

  it('--allowed-origins are normalised, exact, and turn CORS on', () => {
    const policy = buildPolicy({ host: '127.0.0.1', port: 3333, allowedOrigins: ['https://App.Example.com:443'] });
    expect(policy.cors).toBe(true);
    expect(loopback.cors).toBe(false);
    expect(checkOrigin('https://app.example.com', policy)).toBeUndefined();
    expect(checkOrigin('http://app.example.com', policy)).toMatch(/^Forbidden/);
    expect(checkOrigin('https://app.example.com.evil.example', policy)).toMatch(/^Forbidden/);
  });

  it('rejects entries that are not bare origins', () => {
    for (const entry of [
      'app.example.com',
      'https://app.example.com/path',
      'ftp://app.example.com',
      'https://user@app.example.com',
      '*',
    ]) {
      expect(() => buildPolicy({ host: '127.0.0.1', port: 1, allowedOrigins: [entry] }), entry).toThrow(
        /--allowed-origins/,
      );
    }
  });
});

describe('helpers', () => {
  it('isLoopbackHost', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', 'example.com', '128.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('parseHost and splitList', () => {
    expect(parseHost('[::1]:8080')).toEqual({ hostname: '[::1]', port: '8080' });
    expect(parseHost('Example.COM')).toEqual({ hostname: 'example.com', port: undefined });
    expect(splitList(' a, ,b ,')).toEqual(['a', 'b']);
    expect(splitList(undefined)).toEqual([]);
  });
});
