/**
 * The listed output schemas are short (src/tools/listed-schema.ts): nullables as type arrays, the
 * API's deeper data and our own nested records given their JSON type only. They must still describe
 * every structuredContent: the SDK's client validates each answer against the listed schema, in
 * both eras, and a failure there is a protocol error a user sees instead of the answer.
 */
import { Client, type CallToolResult, type JsonSchemaType } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/index.js';
import { BIN, cleanEnv, ROOT, textOf } from './helpers.js';

/** The calls whose answers differ most in shape: empty, widest, every job field, each free-form body. */
const CALLS: Array<[string, Record<string, unknown>]> = [
  ['search_jobs', { per_page: 100, include_predicted_salaries: true }],
  ['search_jobs', { q: 'no such words at all' }],
  ['search_jobs', { domain: 'web3', min_salary_usd: 150_000, page: 2, per_page: 5 }],
  ['list_jobs', { per_page: 100 }],
  ['get_job', { job_id: 'job_ai_0124', include_predicted_salaries: true }],
  ['get_job', { job_id: 'job_ai_0013' }],
  ['get_market_map', {}],
  ['get_market_map', { status: 'error' }],
  ['get_company_interview_brief', { slug: 'northwind-neural' }],
  ['discover_api', {}],
  ['check_api_health', {}],
];

/** The SDK's own validator, noting each answer it checked, by the schema it checked it against. */
function notingValidator() {
  const ajv = new AjvJsonSchemaValidator();
  const checked: string[] = [];
  return {
    checked,
    getValidator<T>(schema: JsonSchemaType) {
      const validate = ajv.getValidator<T>(schema);
      return (input: unknown) => {
        checked.push(JSON.stringify(schema));
        return validate(input);
      };
    },
  };
}

describe.each(['modern', 'legacy'] as const)('%s era', (era) => {
  it('the SDK client validates every answer against the listed output schema, and each fits', async () => {
    const validator = notingValidator();
    const client = new Client(
      { name: 'output-schemas', version: '0.0.0' },
      {
        jsonSchemaValidator: validator,
        ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {}),
      },
    );
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--offline'],
        env: cleanEnv(),
        cwd: ROOT,
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      const listed = new Map(tools.map((tool) => [tool.name, JSON.stringify(tool.outputSchema)]));
      const expected: string[] = [];
      for (const [name, args] of CALLS) {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        expect(result.isError, `${name} ${JSON.stringify(args)}: ${textOf(result)}`).toBeFalsy();
        expected.push(listed.get(name)!);
      }
      // Each answer was checked, against its tool's schema as listed; every tool of ours was called.
      expect(validator.checked).toEqual(expected);
      expect(new Set(CALLS.map(([name]) => name))).toEqual(new Set(TOOLS.map((tool) => tool.name)));
    } finally {
      await client.close();
    }
  });
});
