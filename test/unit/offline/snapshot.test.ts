/** The committed snapshot is what the seeded generator makes, and it is as rich as issue 3 asks. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateSnapshot, serializeSnapshot, SNAPSHOT_PATH } from '../../../scripts/generate-snapshot.js';
import { PublicJobSchema, SLUG_PATTERN } from '../../../src/contract/schemas.js';
import type { Dataset } from '../../../src/offline/dataset.js';

const committed = readFileSync(SNAPSHOT_PATH, 'utf8');
const dataset = JSON.parse(committed) as Dataset;
const active = dataset.jobs.filter((j) => j.active).map((j) => j.job);
const count = <T>(items: T[], key: (item: T) => unknown) => {
  const counts = new Map<unknown, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};

describe('snapshot', () => {
  it('is exactly what the generator makes from its seed (run npm run snapshot after changing it)', () => {
    expect(serializeSnapshot(generateSnapshot())).toBe(committed);
  });

  it('is compact: under 1 MB', () => {
    expect(Buffer.byteLength(committed)).toBeLessThan(1024 * 1024);
  });

  it('has at least 300 active jobs, some inactive, all valid projections with unique URL-safe ids', () => {
    expect(active.length).toBeGreaterThanOrEqual(300);
    expect(dataset.jobs.length).toBeGreaterThan(active.length);
    const ids = dataset.jobs.map((j) => j.job.job_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const stored of dataset.jobs) PublicJobSchema.parse(stored.job);
  });

  it('varies what the filters and renderers care about', () => {
    expect([...count(active, (j) => `${j.domain_id}/${j.domain_assignment}`).keys()].sort()).toEqual([
      'ai/classified',
      'ai/explicit',
      'web3/classified',
      'web3/explicit',
    ]);
    const sources = count(active, (j) => j.salary?.source ?? null);
    for (const source of ['disclosed', 'extracted', 'predicted', null]) expect(sources.get(source)).toBeGreaterThan(10);
    expect(count(active, (j) => j.salary?.currency).size).toBeGreaterThanOrEqual(6);
    expect(count(active, (j) => j.seniority_level).size).toBeGreaterThanOrEqual(6);
    expect(count(active, (j) => j.location_country).size).toBeGreaterThanOrEqual(10);
    expect(new Set(active.map((j) => j.remote_status))).toEqual(new Set(['remote', 'hybrid', 'onsite', null]));
    expect(count(active, (j) => j.company.type).size).toBeGreaterThanOrEqual(6);
    expect(new Set(active.map((j) => j.freshness))).toEqual(new Set(['live', 'active']));
    expect(active.some((j) => j.last_seen?.length === 10)).toBe(true);
    expect(active.some((j) => j.last_seen?.includes('T'))).toBe(true);
    for (const member of ['requirements', 'operating_expectations', 'proof_signals', 'evidence_quality']) {
      expect(active.some((j) => member in j)).toBe(true);
      expect(active.some((j) => !(member in j))).toBe(true);
    }
    expect(active.some((j) => j.url === null)).toBe(true);
    expect(active.some((j) => j.company.logo_url?.startsWith('/'))).toBe(true);
    expect(active.some((j) => j.company.logo_url?.startsWith('https://'))).toBe(true);
    expect(active.some((j) => j.salary?.display.includes('–'))).toBe(true);
  });

  it('has at least 20 companies with briefs and a market map covering every readiness', () => {
    expect(dataset.companies.length).toBeGreaterThanOrEqual(20);
    for (const company of dataset.companies) expect(company.slug).toMatch(SLUG_PATTERN);
    expect(new Set(dataset.companies.map((c) => c.company_id)).size).toBe(dataset.companies.length);
    expect(new Set(dataset.market_map.dimensions.map((d) => d.readiness))).toEqual(
      new Set(['ready', 'partial', 'missing', 'error']),
    );
    expect(dataset.market_map.layers.length).toBeGreaterThanOrEqual(5);
    expect(dataset.market_map.meta.generated_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(dataset.snapshot.source).toMatch(/offline-snapshot.*not live/);
  });
});
