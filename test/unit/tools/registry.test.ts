/** Rules every tool must follow, and a committed snapshot of the catalog clients see. */
import { describe, expect, it } from 'vitest';
import { admitTools } from '../../../src/hosted/admit.js';
import { TOOL_ANNOTATIONS } from '../../../src/tools/define.js';
import { toolCatalog } from '../../../src/tools/tools-list.js';
import { TOOLS } from '../../../src/tools/index.js';

const CONTRACT_NAMES = [
  'search_jobs',
  'list_jobs',
  'get_job',
  'get_market_map',
  'get_company_interview_brief',
  'discover_api',
  'check_api_health',
];

describe('tool registry', () => {
  it('holds exactly the seven tools of docs/contract.md, uniquely named in snake_case, in a fixed order', () => {
    const names = TOOLS.map((t) => t.name);
    expect([...names].sort()).toEqual([...CONTRACT_NAMES].sort());
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/);
    expect(toolCatalog().map((t) => t.name)).toEqual(names);
  });

  it.each(toolCatalog().map((t) => [t.name, t] as const))(
    '%s: annotations, title, description, schemas',
    (_name, tool) => {
      // The title once, as the tool's own: annotations.title (2025-03-26) would say it again.
      expect(tool.annotations).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      });
      expect(tool.title!.length).toBeGreaterThan(3);
      expect(tool.description!.length).toBeGreaterThan(60);
      expect(tool.description!.length).toBeLessThanOrEqual(400);
      expect(tool.inputSchema.type).toBe('object');
      // No arguments: said, as the spec recommends. With arguments, the list is what a model reads, and
      // an argument not on it is refused by name (run.test.ts), so `false` is not paid for again.
      const none = Object.keys(tool.inputSchema.properties ?? {}).length === 0;
      expect((tool.inputSchema as Record<string, unknown>).additionalProperties).toBe(none ? false : undefined);
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.outputSchema?.required).toEqual(expect.arrayContaining(['data', 'meta', 'provenance']));
      expect(JSON.stringify(tool)).not.toContain('$schema');
    },
  );

  it('a bridged tool carries the annotations every tool carries (CONTRACT.md), whatever the deployment adds or leaves out', () => {
    const listed = { name: 'get_company_funding', description: 'Funding rounds.', inputSchema: { type: 'object' } };
    const { tools } = admitTools(
      [
        { ...listed, annotations: { readOnlyHint: true } },
        { ...listed, name: 'list_frontier_ai_evidence', annotations: { readOnlyHint: true, openWorldHint: false } },
      ],
      new Set(),
    );
    for (const tool of toolCatalog(tools)) expect(tool.annotations, tool.name).toEqual(TOOL_ANNOTATIONS);
  });

  it("lists each argument with the spec's constraints (CONTRACT.md: lengths, ranges, patterns, enums)", () => {
    const search = toolCatalog().find((t) => t.name === 'search_jobs')!.inputSchema.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(search.q).toEqual({ type: 'string', minLength: 1, maxLength: 200 });
    // The tools' page size when none is asked for (contract/params.ts), as JSON Schema states one.
    expect(search.per_page).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(search.page).toEqual({ type: 'integer', minimum: 1 });
    expect(search.location_country).toEqual({ type: 'string', pattern: '^[A-Za-z]{2}$' });
    expect(search.min_salary_usd).toMatchObject({ type: 'number', minimum: 0 });
    expect(search.domain).toEqual({ type: 'string', enum: ['ai', 'web3'] });
    expect(search.skill_match).toEqual({ type: 'string', enum: ['any', 'all'] });
    // The spec's comma-separated names, one per item; our own bounds (non-empty, at most 20 of at
    // most 60 characters) are enforced (run.test.ts) but not paid for here.
    expect(search.skills).toEqual({ type: 'array', items: { type: 'string', pattern: '^[^,]+$' } });
    expect(search.seniority_level).toEqual({ type: 'string', minLength: 1 });
    const brief = toolCatalog().find((t) => t.name === 'get_company_interview_brief')!.inputSchema.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(brief.name).toEqual({ type: 'string', minLength: 1, maxLength: 160 });
    expect(brief.slug).toEqual({ type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' });
    const map = toolCatalog().find((t) => t.name === 'get_market_map')!.inputSchema.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(map.status).toMatchObject({ enum: ['all', 'ready', 'partial', 'missing', 'error'] });
    const job = toolCatalog().find((t) => t.name === 'get_job')!.inputSchema;
    expect(job.required).toEqual(['job_id']);
  });

  it("input schemas pass MCP Inspector's --strict portability rules; no schema is an empty object", () => {
    // The two rules `inspector --cli --strict --method tools/list` reported 128 warnings under
    // (2.12.0): a nullable written as a type array, and a loose object's `additionalProperties: {}`.
    // Input schemas keep both (clients map them onto one-type dialects: Gemini's function
    // declarations). Output schemas go to no model and no such mapping: their nullables are type
    // arrays, about 450 o200k tokens less (listed-schema.ts).
    const found: string[] = [];
    const walk = (node: unknown, path: string, isSchema: boolean): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}[${i}]`, isSchema));
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Record<string, unknown>;
      if (isSchema && Array.isArray(schema.type) && path.includes('.inputSchema'))
        found.push(`${path}: type ${JSON.stringify(schema.type)}`);
      if (isSchema && Object.keys(schema).length === 0) found.push(`${path}: {}`);
      for (const [key, child] of Object.entries(schema)) {
        if (['enum', 'const', 'required', 'examples', 'default', 'type'].includes(key)) continue;
        // Under `properties` each value is a schema; the object itself is a map of names.
        if (key === 'properties') {
          for (const [name, property] of Object.entries(child as Record<string, unknown>))
            walk(property, `${path}.properties.${name}`, true);
        } else walk(child, `${path}.${key}`, typeof child === 'object');
      }
    };
    for (const tool of toolCatalog()) {
      walk(tool.inputSchema, `${tool.name}.inputSchema`, true);
      walk(tool.outputSchema, `${tool.name}.outputSchema`, true);
    }
    expect(found).toEqual([]);
  });

  it('matches the committed catalog snapshot', async () => {
    await expect(JSON.stringify(toolCatalog(), null, 2) + '\n').toMatchFileSnapshot('./__snapshots__/tools.json');
  });
});
