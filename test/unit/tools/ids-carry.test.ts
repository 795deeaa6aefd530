/**
 * Identifiers carry from one tool to the next in the type the model saw: a job's company id (an
 * integer, as PublicJob has it) reaches the interview brief, read from the text alone or passed
 * as given, and as a numeric string.
 */
import { describe, expect, it } from 'vitest';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { findTool } from '../../helpers/tools.js';
import { runTool } from '../../../src/tools/run.js';
import { offlineClient } from '../../helpers/offline-client.js';

const context = async () => ({ client: offlineClient(await createOfflineEngine()), mode: 'embedded' as const });
const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;
const call = async (name: string, args: Record<string, unknown>, ctx: Awaited<ReturnType<typeof context>>) => {
  const result = await runTool(findTool(name)!, args, ctx);
  expect(result.isError, `${name}: ${text(result)}`).toBeFalsy();
  return result;
};

describe('ids carry from search to job to brief', () => {
  it('search_jobs → get_job → get_company_interview_brief, each call made from the text before it', async () => {
    const ctx = await context();
    const found = text(await call('search_jobs', { q: 'engineer', per_page: 1 }, ctx));
    const jobId = /^1\. (\S+) /m.exec(found)![1]!;
    const job = text(await call('get_job', { job_id: jobId }, ctx));
    const companyId = /company_id (\d+)/.exec(job)?.[1];
    expect(companyId, job).toBeDefined();

    const brief = await call('get_company_interview_brief', { company_id: Number(companyId) }, ctx);
    const name = / at "([^"]+)" \(/.exec(job)![1]!;
    expect(text(brief)).toContain(`Interview brief for "${name}"`);
  });

  it('the integer the job carries, and the same id as a numeric string, give the same brief', async () => {
    const ctx = await context();
    const listed = await call('list_jobs', { per_page: 1 }, ctx);
    const id = (listed.structuredContent as { data: { jobs: Array<{ company: { id: number } }> } }).data.jobs[0]!
      .company.id;
    expect(typeof id).toBe('number');
    const byInteger = await call('get_company_interview_brief', { company_id: id }, ctx);
    const byString = await call('get_company_interview_brief', { company_id: String(id) }, ctx);
    expect(byInteger.structuredContent).toHaveProperty('data', (byString.structuredContent as { data: unknown }).data);
  });

  it('a company_id of another type is refused naming both it takes, with nothing sent', async () => {
    const ctx = await context();
    for (const [value, expected] of [
      [true, 'company_id: must be a number or a string, got boolean true'],
      [10.5, 'company_id: must be an integer, got number 10.5'],
      ['', 'company_id: must be at least 1 character long'],
    ] as const) {
      const result = await runTool(findTool('get_company_interview_brief')!, { company_id: value }, ctx);
      expect(result.isError).toBe(true);
      expect(text(result)).toContain(`invalid_argument: ${expected}`);
    }
  });
});
