/**
 * The API stopped mid-session, through the built binary over stdio: a call the server answered
 * before is answered again with that answer, saying first that the API did not answer and how old
 * the answer is; anything else is the error it always was, and --no-cache keeps nothing. The API is
 * the offline API served from this process, answering without freshness headers (mock-api says a
 * minute, and within that minute a repeat is an ordinary cache hit, the API not even asked).
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { connectStdio, textOf, type StdioSession } from './helpers.js';
import { startRecordingApi, type RecordingApi } from './recording-api.js';

let api: RecordingApi | undefined;
let session: StdioSession | undefined;
afterEach(async () => {
  await session?.close();
  await api?.close().catch(() => {});
  session = api = undefined;
});

const search = async (q: string) =>
  (await session!.client.callTool({ name: 'search_jobs', arguments: { q } })) as CallToolResult;

type Provenance = { last_answer?: { reason: string; fetched_at: string; age_s: number }; cache?: unknown };
const provenanceOf = (result: CallToolResult) => (result.structuredContent as { provenance: Provenance }).provenance;

describe('the API stopped mid-session', () => {
  it('the same call answers with the last answer, first saying so; another call is the network error', async () => {
    api = await startRecordingApi({ noFreshness: true });
    session = await connectStdio(['--base-url', api.url]);
    const live = await search('rust');
    expect(live.isError, textOf(live)).toBeFalsy();
    expect(provenanceOf(live).last_answer).toBeUndefined();

    await api.close();
    const kept = await search('rust');
    expect(kept.isError, textOf(kept)).toBeFalsy();
    const lines = textOf(kept).split('\n');
    expect(lines[0]).toMatch(
      /^LAST ANSWER, NOT LIVE: the API did not answer this call \(network: "GET \/api\/public\/v1\/search\/jobs\?q=rust&per_page=10 failed: [^"]*ECONNREFUSED[^"]*"\); this is its earlier answer to the same request, from this server's response cache, fetched \S+ \((just now|\d+ minutes? ago)\)\.$/,
    );
    // Still fictional sample data, said before any figure.
    expect(lines[1]).toMatch(/^FICTIONAL sample data/);
    expect((kept.structuredContent as { data: unknown }).data).toEqual(
      (live.structuredContent as { data: unknown }).data,
    );
    expect(provenanceOf(kept).last_answer).toMatchObject({ reason: 'network', age_s: expect.any(Number) });

    const other = await search('go');
    expect(other.isError).toBe(true);
    expect(textOf(other)).toMatch(/^network: .*ECONNREFUSED/);
    // Health is asked of the API every time: never a kept answer.
    const health = (await session.client.callTool({ name: 'check_api_health', arguments: {} })) as CallToolResult;
    expect(health.isError).toBe(true);
  });

  it('with --no-cache the same call is the network error', async () => {
    api = await startRecordingApi({ noFreshness: true });
    session = await connectStdio(['--base-url', api.url, '--no-cache']);
    expect((await search('rust')).isError).toBeFalsy();
    await api.close();
    const failed = await search('rust');
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/^network: .*ECONNREFUSED/);
  });
});
