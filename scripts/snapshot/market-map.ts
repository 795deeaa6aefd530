/** The market map: dimensions by layer, with readiness, counts, medians and trends from the jobs. */
import type { Dataset, MarketMapDimension, Readiness, StoredJob } from '../../src/offline/dataset.js';
import { SOURCE, type Random, type Vocabulary } from './basics.ts';
import { annualUsd, median } from './jobs.ts';

export function buildMarketMap(vocab: Vocabulary, jobs: StoredJob[], random: Random): Dataset['market_map'] {
  const active = jobs.filter((j) => j.active);
  const errorDims = new Set(
    random.sample(
      vocab.marketMap.map((d) => d.id),
      2,
    ),
  );
  const dimensions: MarketMapDimension[] = vocab.marketMap.map((dim) => {
    const matching = active.filter(
      (j) => j.job.domain_id === dim.domain_id && j.job.skills.some((s) => dim.skills.includes(s)),
    );
    const companies = new Set(matching.map((j) => j.job.company.name));
    let readiness: Readiness =
      dim.skills.length === 0 || matching.length === 0 ? 'missing' : matching.length < 12 ? 'partial' : 'ready';
    if (readiness !== 'missing' && errorDims.has(dim.id)) readiness = 'error';
    const salaries = matching.map((j) => annualUsd(j, vocab.fxToUsd)).filter((v): v is number => v !== null);
    const suppressSalary = salaries.length < 3;
    const base = { id: dim.id, label: dim.label, layer: dim.layer, domain_id: dim.domain_id, readiness };
    if (readiness === 'missing')
      return {
        ...base,
        job_count: null,
        company_count: null,
        median_disclosed_salary_usd: null,
        note: 'No source in this snapshot covers this dimension yet.',
        suppressed: [],
      };
    if (readiness === 'error')
      return {
        ...base,
        job_count: null,
        company_count: null,
        median_disclosed_salary_usd: null,
        error: 'aggregation failed: the skill taxonomy refresh timed out',
        suppressed: [],
      };
    const skillCounts = new Map<string, number>();
    for (const j of matching) for (const s of j.job.skills) skillCounts.set(s, (skillCounts.get(s) ?? 0) + 1);
    const medianUsd = median(salaries);
    return {
      ...base,
      job_count: matching.length,
      company_count: companies.size,
      median_disclosed_salary_usd: suppressSalary || medianUsd === null ? null : Math.round(medianUsd / 1000) * 1000,
      top_skills: [...skillCounts.entries()]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 5)
        .map(([s]) => s),
      trend_30d_pct: random.int(-15, 40),
      coverage: { sources: random.int(2, 6), observed_from: '2026-10-03', observed_to: '2026-11-01' },
      suppressed: suppressSalary
        ? [{ field: 'median_disclosed_salary_usd', reason: 'fewer than 3 disclosed salaries' }]
        : [],
    };
  });
  for (const state of ['ready', 'partial', 'missing', 'error'] as const) {
    if (!dimensions.some((d) => d.readiness === state))
      throw new Error(`market map has no ${state} dimension; adjust the vocabulary`);
  }
  const layers = [...new Set(vocab.marketMap.map((d) => d.layer))];
  return {
    meta: { source: SOURCE, generated_at: '2026-11-02 06:00:00', computed_at: '2026-11-02T06:07:45Z' },
    layers,
    generation: {
      generated_at: '2026-11-02 06:00:00',
      timezone_stated: false,
      cadence: 'weekly',
      method: 'skill and role taxonomy over active job postings',
      job_window: { from: '2026-10-03', to: '2026-11-01' },
      dimension_count: dimensions.length,
    },
    dimensions,
  };
}
