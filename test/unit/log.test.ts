/** The logger: stderr (or the given writer) only, never stdout; honours its level; redacts. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, silentLogger } from '../../src/obs/log.js';
import { installTelemetry, telemetry } from '../../src/obs/telemetry-hooks.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function capture(level: Parameters<typeof createLogger>[0]) {
  const lines: string[] = [];
  const logger = createLogger(level, (line) => lines.push(line));
  return { logger, lines };
}

describe('createLogger', () => {
  it('writes only through the given writer, never to stdout', () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { logger, lines } = capture('debug');
    logger.error('e');
    logger.warn('w');
    logger.info('i');
    logger.debug('d');
    expect(lines).toEqual([
      '[service-mcp] error: e\n',
      '[service-mcp] warn: w\n',
      '[service-mcp] info: i\n',
      '[service-mcp] debug: d\n',
    ]);
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
  });

  it('defaults to stderr, not stdout', () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    createLogger('warn').warn('to stderr');
    expect(stderr).toHaveBeenCalledWith('[service-mcp] warn: to stderr\n');
    expect(stdout).not.toHaveBeenCalled();
  });

  it.each([
    ['error', ['error']],
    ['warn', ['error', 'warn']],
    ['info', ['error', 'warn', 'info']],
    ['debug', ['error', 'warn', 'info', 'debug']],
  ] as const)('at %s it writes %j', (level, written) => {
    const { logger, lines } = capture(level);
    logger.error('x');
    logger.warn('x');
    logger.info('x');
    logger.debug('x');
    expect(lines.map((line) => line.split(':')[0]!.replace('[service-mcp] ', ''))).toEqual(written);
    expect(logger.enabled('debug')).toBe(level === 'debug');
    expect(logger.enabled('error')).toBe(true);
  });

  it('appends data as JSON', () => {
    const { logger, lines } = capture('info');
    logger.info('429 on /jobs', { budgetS: 17 });
    logger.info('no data', {});
    expect(lines).toEqual(['[service-mcp] info: 429 on /jobs {"budgetS":17}\n', '[service-mcp] info: no data\n']);
  });

  it('redacts secrets in the message and in the data', () => {
    const { logger, lines } = capture('debug');
    logger.warn('GET https://user:pw@api.example.test/x?token=abc');
    logger.warn('auth', { header: 'Bearer abc.def', url: 'https://u:p@h.example/' });
    const text = lines.join('');
    expect(text).not.toMatch(/pw@|token=abc|abc\.def|u:p@/);
    expect(text).toContain('[redacted]');
  });

  it('sinks see lines at or above the level, redacted, and can be removed', () => {
    const { logger } = capture('info');
    const sink = vi.fn();
    const remove = logger.addSink(sink);
    logger.debug('hidden');
    logger.info('shown https://u:p@h.example/', { url: 'https://u:p@h.example/', path: '/jobs?token=abc', n: 1 });
    expect(sink).toHaveBeenCalledTimes(1);
    expect(sink).toHaveBeenCalledWith('info', 'shown https://[redacted]@h.example/', {
      url: 'https://[redacted]@h.example/',
      path: '/jobs?token=[redacted]',
      n: 1,
    });
    remove();
    logger.info('after');
    expect(sink).toHaveBeenCalledTimes(1);
  });

  it('a failing sink does not break the call that logged', () => {
    const { logger, lines } = capture('info');
    logger.addSink(() => {
      throw new Error('transport closed');
    });
    expect(() => logger.info('still fine')).not.toThrow();
    expect(lines).toEqual([
      '[service-mcp] info: still fine\n',
      '[service-mcp] warn: log sink failed: Error: transport closed\n',
    ]);
  });

  it('data that cannot be serialized does not throw', () => {
    const { logger, lines } = capture('info');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => logger.info('cyclic', cyclic)).not.toThrow();
    expect(lines[0]).toMatch(/^\[service-mcp\] info: cyclic/);
    expect(() => logger.info('bigint', { n: 1n })).not.toThrow();
  });
});

describe('silentLogger', () => {
  it('writes nothing anywhere', () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    silentLogger.error('nothing');
    silentLogger.debug('nothing');
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
  });
});

describe('the sink of a call', () => {
  it('gets the lines logged with it, redacted like stderr, and no other line', () => {
    const lines: string[] = [];
    const logger = createLogger('debug', (line) => lines.push(line));
    const a: string[] = [];
    const b: string[] = [];
    const sinkA = (_level: string, message: string) => a.push(message);
    const sinkB = (_level: string, message: string) => b.push(message);
    logger.info('a step https://user:secret@example.test/x', undefined, sinkA);
    logger.debug('b step', undefined, sinkB);
    logger.info('outside any call');
    expect(a).toEqual(['a step https://[redacted]@example.test/x']);
    expect(b).toEqual(['b step']);
    expect(lines).toHaveLength(3);
  });

  it('is not told lines below the logger level', () => {
    const logger = createLogger('info', () => {});
    const seen: string[] = [];
    logger.debug('hidden', undefined, (_level, message) => seen.push(message));
    expect(seen).toEqual([]);
  });
});

describe('--log-format json', () => {
  const json = () => {
    const lines: string[] = [];
    return { logger: createLogger('debug', (line) => lines.push(line), 'json'), lines };
  };

  it('writes one JSON object per line: time, level, message, the data, redacted; no trace ids outside a traced request', () => {
    const { logger, lines } = json();
    logger.warn('Bearer abcdef0123456789abcdef0123456789 refused', {
      url: 'https://x.example/?api_key=abcdef0123456789',
    });
    logger.info('two\nlines "quoted"');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n')).toBe(true);
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: 'warn',
      message: expect.any(String),
      data: { url: expect.any(String) },
    });
    expect(JSON.stringify(first)).not.toContain('abcdef0123456789');
    expect(second).toEqual({ time: expect.any(String), level: 'info', message: 'two\nlines "quoted"' });
  });

  it('inside a traced request, adds trace_id and span_id', () => {
    const before = telemetry();
    installTelemetry({ ...before, traceIds: () => ({ trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16) }) });
    try {
      const { logger, lines } = json();
      logger.error('failed');
      expect(JSON.parse(lines[0]!)).toMatchObject({
        level: 'error',
        message: 'failed',
        trace_id: 'a'.repeat(32),
        span_id: 'b'.repeat(16),
      });
    } finally {
      installTelemetry(before);
    }
  });

  it('the default stays the text line', () => {
    const { logger, lines } = capture('info');
    logger.info('plain');
    expect(lines).toEqual(['[service-mcp] info: plain\n']);
  });
});
