/**
 * Each tool's outputSchema lists the provenance members its answers carry, and no other: a member
 * listed for every tool is paid for in every conversation, and one missing would leave a client's
 * type short of what it is sent.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { TOOLS } from '../../../src/tools/index.js';
import { outputSchemaOf, runTool } from '../../../src/tools/run.js';
import { offlineClient } from '../../helpers/offline-client.js';

const FRESHNESS_MEMBERS = ['cadence', 'stale', 'last_seen_age_s'];

describe('the provenance each outputSchema lists', () => {
  it.each(TOOLS.map((tool) => [tool.name, tool] as const))('%s: what its answers carry', async (_name, tool) => {
    const context = { client: offlineClient(await createOfflineEngine()), mode: 'embedded' as const };
    const result = await runTool(tool, tool.example, context);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const carried = Object.keys((result.structuredContent as { provenance: object }).provenance);
    const provenance = outputSchemaOf(tool).shape.provenance as z.ZodObject;
    const listed = Object.keys(provenance.shape);
    expect(listed).toEqual(expect.arrayContaining(carried));
    // A freshness member is listed only where the tool's answer can say it: here, where it does.
    expect(listed.filter((key) => FRESHNESS_MEMBERS.includes(key))).toEqual(
      carried.filter((key) => FRESHNESS_MEMBERS.includes(key)),
    );
  });

  it('the market map states a cadence and jobs their last_seen, so those members are listed there only', () => {
    const listing = (name: string) =>
      Object.keys((outputSchemaOf(TOOLS.find((tool) => tool.name === name)!).shape.provenance as z.ZodObject).shape);
    expect(listing('get_market_map')).toEqual(expect.arrayContaining(['cadence', 'stale']));
    for (const name of ['search_jobs', 'list_jobs', 'get_job']) expect(listing(name)).toContain('last_seen_age_s');
    for (const name of ['get_company_interview_brief', 'discover_api', 'check_api_health'])
      expect(listing(name)).not.toEqual(expect.arrayContaining(['cadence']));
  });
});
