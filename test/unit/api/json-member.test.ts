/**
 * The client hands on data and meta as the API wrote them (ApiResult.json) only when they are
 * exactly what it returns as objects: never for a body validation had to copy.
 */
import { describe, expect, it, vi } from 'vitest';
import { fakeUpstream, jobList, makeClient, makeJob, okJobs } from './helpers.js';

const fastPath = vi.hoisted(() => ({ passes: true }));
vi.mock('../../../src/api/compiled.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/api/compiled.js')>();
  return { passes: (schema: never, value: unknown) => fastPath.passes && original.passes(schema, value) };
});

describe('ApiResult.json', () => {
  it('is the text of data and meta when validation passed the parsed body on as it was', async () => {
    fastPath.passes = true;
    const result = await makeClient({ fetch: fakeUpstream(() => okJobs()).fetch }).listJobs();
    expect(JSON.parse(result.json!.data)).toEqual(result.data);
    expect(JSON.parse(result.json!.meta)).toEqual(result.meta);
  });

  it('is absent when data or meta spans lines (a stdio message is one line), kept for an escaped line break', async () => {
    fastPath.passes = true;
    const answer = (text: string) => makeClient({ fetch: fakeUpstream(() => new Response(text, { status: 200, headers: { 'content-type': 'application/json' } })).fetch }).listJobs();
    const body = jobList([makeJob({ title: 'line one\nline two' })]);
    const compact = JSON.stringify(body);
    expect((await answer(JSON.stringify(body, null, 2))).json).toBeUndefined();
    expect((await answer(compact.replace('"data":{', '"data":{\n'))).json).toBeUndefined();
    expect((await answer(compact.replace('"meta":{', '"meta":{\r'))).json).toBeUndefined();
    const escaped = await answer(compact);
    expect(escaped.json!.data).toContain('line one\\nline two');
    expect(JSON.parse(escaped.json!.data)).toEqual(escaped.data);
  });

  it('is absent when validation returned a copy (the ordinary parse after a failed fast check)', async () => {
    fastPath.passes = false;
    const result = await makeClient({ fetch: fakeUpstream(() => okJobs()).fetch }).listJobs();
    expect(result.data.jobs).toHaveLength(1);
    expect(result.json).toBeUndefined();
  });
});
