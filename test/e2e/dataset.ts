/** Facts about the committed offline snapshot that end-to-end tests need (ids, slugs). */
import { readFileSync } from 'node:fs';
import type { Dataset } from '../../src/offline/dataset.js';

export const dataset = JSON.parse(
  readFileSync(new URL('../../src/offline/snapshot.json', import.meta.url), 'utf8'),
) as Dataset;
export const activeJob = dataset.jobs.find((j) => j.active)!.job;
export const inactiveJob = dataset.jobs.find((j) => !j.active)!.job;
export const company = dataset.companies[0]!;

/** The tools mock-api's hosted market surface offers beyond our seven: bridged, after ours, where the bridge is on. */
export const MARKET_TOOLS = ['get_compensation_benchmarks', 'get_company_funding', 'list_frontier_ai_evidence'];
