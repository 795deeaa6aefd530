/**
 * The offline deployment's hosted market surface, POST /api/public/v1/mcp?surface=market: a server
 * of its own tools, never a bridge: the seven over its REST API, and the market tools REST lacks
 * (compensation benchmarks, funding rounds, frontier-AI evidence), over the snapshot and as
 * fictional as it, registered with the SDK directly (the local server knows them only as any
 * deployment's, by reading the hosted list). The engine routes the path here in-process, so the
 * offline bridge reaches it with no socket; mock-api serves the same definitions over HTTP.
 */
import { createMcpHandler, type CallToolResult, type McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Config } from '../config/config.js';
import { createServer } from '../mcp/server.js';
import type { Logger } from '../obs/log.js';
import type { Dataset } from '../offline/dataset.js';
import { createOfflineEngine, type OfflineEngine } from '../offline/engine.js';
import { compensationBenchmarks } from '../offline/market/compensation.js';
import { frontierEvidence } from '../offline/market/evidence.js';
import { findCompany, fundingRounds } from '../offline/market/funding.js';
import { shownOf } from '../render/shown.js';
import type { Backend } from '../tools/backend.js';
import { createBackend } from './backend.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

/** Benchmark rows in the text; the rest are in structuredContent (179 offline rows would cost ~4k tokens). */
const ROWS_SHOWN = 10;
/** Evidence items one call returns at most, each on its own line. */
const MAX_LIMIT = 50;

const OutputSchema = z.object({
  data: z.record(z.string(), z.unknown()),
  meta: z.object({ source: z.string(), generated_at: z.string(), computed_at: z.string() }),
});

// The integer a job's company.id is, or a string (its digits, a slug, a name): an id passes as shown.
const company = z.union([z.int().min(0), z.string().min(1).max(160)]).describe('company_id, slug or exact name');

function answer(dataset: Dataset, text: string, data: Record<string, unknown>): CallToolResult {
  const { source, generated_at, computed_at } = dataset.snapshot;
  return {
    content: [{ type: 'text', text: `FICTIONAL offline sample data. ${text}` }],
    structuredContent: { data, meta: { source, generated_at, computed_at } },
  };
}

const notFound = (key: string | number): CallToolResult => ({
  content: [{ type: 'text', text: `No company ${JSON.stringify(key)} in this snapshot.` }],
  isError: true,
});

export function registerMarketTools(mcp: McpServer, dataset: Dataset): void {
  mcp.registerTool(
    'get_compensation_benchmarks',
    {
      title: 'Compensation benchmarks',
      description:
        'How much people in an AI or web3 role earn, make, are paid (paying) or should ask for (pay benchmarks, the going rate): annualized USD salary range (p25, median, p75 percentiles) by role, seniority (senior, staff…) and evidence class (disclosed, extracted, predicted), from active postings; to judge whether an offer is fair. Classes are never pooled.',
      inputSchema: z.strictObject({
        role: z.string().min(1).max(80).optional().describe('part of a role label'),
        seniority_level: z.string().min(1).max(40).optional(),
        domain: z.enum(['ai', 'web3']).optional(),
        evidence_class: z.enum(['disclosed', 'extracted', 'predicted']).optional(),
      }),
      outputSchema: OutputSchema,
      annotations: { title: 'Compensation benchmarks', ...READ_ONLY },
    },
    (args) => {
      const rows = compensationBenchmarks(dataset, args);
      const count = shownOf(
        Math.min(rows.length, ROWS_SHOWN),
        rows.length,
        'benchmark rows',
        'in structuredContent, or narrow by role, seniority_level, domain or evidence_class',
        rows.length > 1 ? ', largest samples first' : '',
      );
      const shown = rows
        .slice(0, ROWS_SHOWN)
        .map(
          (r) =>
            `\n- ${r.role} (${r.seniority_level ?? 'any level'}, ${r.evidence_class}): median $${r.annual_usd.median.toLocaleString('en-US')} a year, from ${r.postings} posting${r.postings === 1 ? '' : 's'}`,
        );
      // An empty answer names what would match, so a caller guessing a label ("ML Engineer") can retry.
      const known =
        rows.length === 0 && args.role !== undefined
          ? ` No role with salary data contains "${args.role}"; roles with data: ${[...new Set(compensationBenchmarks(dataset, {}).map((r) => r.role))].sort().join(', ')}.`
          : '';
      return answer(dataset, `${count}.${known}${shown.join('')}`, { benchmarks: rows });
    },
  );
  mcp.registerTool(
    'get_company_funding',
    {
      title: 'Company funding rounds',
      description:
        'How well funded a company is: money raised (raise) from venture capital (VC) in each funding round (seed, Series A…), its date, USD amount and who invested or backed it (lead investors).',
      inputSchema: z.strictObject({ company }),
      outputSchema: OutputSchema,
      annotations: { title: 'Company funding rounds', ...READ_ONLY },
    },
    ({ company: key }) => {
      const found = findCompany(dataset, key);
      if (!found) return notFound(key);
      const funding = fundingRounds(dataset, found);
      const rounds = funding.rounds
        .map((r) => `${r.round} ${r.announced_on} $${r.amount_usd.toLocaleString('en-US')} led by ${r.lead_investor}`)
        .join('; ');
      return answer(dataset, `${found.name}: ${rounds || funding.note} | company_id ${found.company_id}`, {
        ...funding,
      });
    },
  );
  mcp.registerTool(
    'list_frontier_ai_evidence',
    {
      title: 'Frontier-AI evidence',
      description:
        'Proof of frontier-AI work by company or lab (labs): models released (model releases), evaluations and safety reports published, compute; newest first.',
      inputSchema: z.strictObject({
        company: company.optional(),
        kind: z.enum(['model_release', 'evaluation', 'safety_report', 'compute']).optional(),
        limit: z.number().int().min(1).max(MAX_LIMIT).optional(),
      }),
      outputSchema: OutputSchema,
      annotations: { title: 'Frontier-AI evidence', ...READ_ONLY },
    },
    ({ company: key, kind, limit = 10 }) => {
      const found = key === undefined ? undefined : findCompany(dataset, key);
      if (key !== undefined && !found) return notFound(key);
      const { items, matching } = frontierEvidence(dataset, { company: found, kind, limit });
      const count = shownOf(
        items.length,
        matching,
        'evidence items',
        matching > MAX_LIMIT ? 'narrow by company or kind' : `call again with limit=${matching}`,
        items.length > 1 ? ', newest first' : '',
      );
      const shown = items.map((i) => `\n- ${i.observed_on} ${i.kind}: ${i.title} (${i.evidence_class})`);
      return answer(dataset, `${count}.${shown.join('')}`, { items, matching });
    },
  );
}

/** The offline surface's own tools, added to a server of ours. */
export const marketTools =
  (engine: OfflineEngine) =>
  (mcp: McpServer): void =>
    registerMarketTools(mcp, engine.dataset);

/** The backend the surface's seven tools call: the same engine, and no bridge. */
export const surfaceBackend = (config: Config, logger: Logger, engine: OfflineEngine): Backend =>
  createBackend(config, logger, { engine, noBridge: true });

/** An offline engine whose hosted tool endpoint is the market surface, answered in-process. */
export async function createOfflineDeployment(config: Config, logger: Logger): Promise<OfflineEngine> {
  let serve: ((request: Request) => Promise<Response>) | undefined;
  const engine = await createOfflineEngine({ hosted: (request) => serve!(request) });
  // The deployment's surface is not ours to trim: with `--tools` it would refuse, or hide, the very
  // bridged tools the flag names.
  const backend = surfaceBackend({ ...config, tools: undefined }, logger, engine);
  const handler = createMcpHandler(() => createServer({ backend, logger, extend: marketTools(engine) }), {
    legacy: 'stateless',
  });
  serve = (request) => handler.fetch(request);
  return engine;
}
