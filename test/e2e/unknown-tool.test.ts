/**
 * An unknown tool is the SDK's protocol error (-32602), and it names the tools that exist, as the
 * `--tools` start-up error does: the exposed ones only, over stdio and HTTP alike.
 */
import { ProtocolError, ProtocolErrorCode, type Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/contract/tool-names.js';
import { connectStdio } from './helpers.js';
import { connectHttp, startHttpServer } from './http-helpers.js';

async function unknownToolError(client: Client): Promise<ProtocolError> {
  const error = await client.callTool({ name: 'get_salary', arguments: {} }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ProtocolError);
  expect((error as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
  return error as ProtocolError;
}

describe('an unknown tool names the tools that exist', () => {
  it('over stdio, the tools --tools exposes and no other', async () => {
    const session = await connectStdio(['--offline', '--tools', 'search_jobs,get_job']);
    try {
      const error = await unknownToolError(session.client);
      expect(error.message).toMatch(/Tool get_salary not found; the tools are search_jobs, get_job$/);
    } finally {
      await session.close();
    }
  });

  it('over HTTP, every tool of the registry when all are exposed', async () => {
    const server = await startHttpServer(['--offline']);
    const session = await connectHttp(server.url);
    try {
      const error = await unknownToolError(session.client);
      expect(error.message).toMatch(new RegExp(`Tool get_salary not found; the tools are ${TOOL_NAMES.join(', ')}$`));
    } finally {
      await session.close();
      await server.stop();
    }
  });
});
