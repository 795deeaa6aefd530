/**
 * A result served fresh from the response cache reuses its rendered data, never its provenance:
 * every call's text states that call's retrieved_at and cache age, and the data part reads as a
 * fresh render of the same data would.
 */
import { describe, expect, it } from 'vitest';
import type { ApiClient, ApiResult } from '../../../src/api/client.js';
import { renderJobDetail, renderJobList } from '../../../src/render/jobs.js';
import { findTool } from '../../../src/tools/index.js';
import { runTool } from '../../../src/tools/run.js';
import { jobListBody, makeJob } from '../../helpers/fixtures.js';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** A client whose every call is a fresh hit on the same frozen data, each with its own time and age. */
function hitClient(data: unknown) {
  const frozen = deepFreeze(data);
  let n = 0;
  const result = (): ApiResult<unknown> => {
    n++;
    return { data: frozen, meta: { source: 'api' }, status: 200, path: '/x', retrievedAt: `2026-01-01T00:00:0${n}.000Z`, cache: { hit: true, ageS: n * 10 } };
  };
  const client = { getJob: async () => result(), searchJobs: async () => result() } as unknown as ApiClient;
  return { client, mode: 'live' as const };
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('rendering of fresh cache hits', () => {
  it('get_job: the same data text each call, with that call’s retrieved_at and age', async () => {
    const job = makeJob();
    const context = hitClient(job);
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) texts.push(text(await runTool(findTool('get_job')!, { job_id: String(job.job_id) }, context)));
    texts.forEach((t, i) => {
      expect(t.startsWith(`${renderJobDetail(job as never)}\n`)).toBe(true);
      expect(t).toContain(`retrieved 2026-01-01T00:00:0${i + 1}.000Z`);
      expect(t).toContain(`from cache, ${(i + 1) * 10}s old`);
    });
  });

  it('search_jobs: arguments that change the text are not served another call’s text', async () => {
    const data = (jobListBody([makeJob({ job_id: 'a', salary: { min: 1, max: 2, currency: 'USD', source: 'predicted', display: '$1–2' } }), makeJob({ job_id: 'b', salary: null })]) as { data: unknown }).data;
    const context = hitClient(data);
    const search = findTool('search_jobs')!;
    expect(renderJobList(data as never, { include_predicted_salaries: true })).not.toBe(renderJobList(data as never, {}));
    const plain = text(await runTool(search, {}, context));
    const predicted = text(await runTool(search, { include_predicted_salaries: true }, context));
    const plainAgain = text(await runTool(search, {}, context));
    expect(plain.startsWith(`${renderJobList(data as never, {})}\n`)).toBe(true);
    expect(predicted.startsWith(`${renderJobList(data as never, { include_predicted_salaries: true })}\n`)).toBe(true);
    expect(plainAgain.startsWith(`${renderJobList(data as never, {})}\n`)).toBe(true);
    expect(plainAgain).toContain('retrieved 2026-01-01T00:00:03.000Z');
  });
});
