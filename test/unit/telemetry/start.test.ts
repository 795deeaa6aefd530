/** When traces are wanted: the standard OTel variables, and nothing else, decide. */
import { describe, expect, it } from 'vitest';
import { tracesWanted } from '../../../src/telemetry/start.js';

describe('tracesWanted', () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_EXPORTER: 'otlp' }, false],
  ])('%j: %s', (env, wanted) => {
    expect(tracesWanted(env)).toBe(wanted);
  });
});
