/**
 * Compensation benchmarks of the offline hosted surface, computed from the snapshot's salaries:
 * annualized USD by role, seniority and evidence class. Classes are never pooled: a disclosed
 * median and a predicted one are two rows, so a reader cannot quote a model's estimate as pay.
 */
import { PER_YEAR, type Dataset } from '../dataset.js';

interface BenchmarkQuery {
  role?: string | undefined;
  seniority_level?: string | undefined;
  domain?: 'ai' | 'web3' | undefined;
  evidence_class?: string | undefined;
}

const contains = (text: string, part: string) => text.toLowerCase().includes(part.trim().toLowerCase());

function quantile(sorted: number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return Math.round(sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low));
}

/** One row per role, seniority and evidence class among active jobs with a salary, widest sample first. */
export function compensationBenchmarks(dataset: Dataset, query: BenchmarkQuery) {
  type Row = { role: string; seniority_level: string | null; evidence_class: string };
  const groups = new Map<string, { row: Row; values: number[] }>();
  for (const { active, salary_period, job } of dataset.jobs) {
    const salary = job.salary;
    if (!active || !salary || salary_period === null) continue;
    if (query.role !== undefined && !contains(job.role.label, query.role)) continue;
    if (query.seniority_level !== undefined && job.seniority_level !== query.seniority_level) continue;
    if (query.domain !== undefined && job.domain_id !== query.domain) continue;
    if (query.evidence_class !== undefined && salary.source !== query.evidence_class) continue;
    const ends = [salary.min, salary.max].filter((v): v is number => typeof v === 'number');
    const rate = dataset.fx_to_usd[salary.currency];
    if (ends.length === 0 || rate === undefined) continue;
    const midpoint = (ends.reduce((a, b) => a + b, 0) / ends.length) * rate * PER_YEAR[salary_period];
    const key = `${job.role.label}\u0000${job.seniority_level}\u0000${salary.source}`;
    let group = groups.get(key);
    if (!group)
      groups.set(
        key,
        (group = {
          row: { role: job.role.label, seniority_level: job.seniority_level, evidence_class: salary.source },
          values: [],
        }),
      );
    group.values.push(midpoint);
  }
  return [...groups.values()]
    .map(({ row, values }) => {
      const sorted = values.sort((a, b) => a - b);
      return {
        ...row,
        postings: sorted.length,
        annual_usd: {
          p25: quantile(sorted, 0.25),
          median: quantile(sorted, 0.5),
          p75: quantile(sorted, 0.75),
          min: Math.round(sorted[0]!),
          max: Math.round(sorted.at(-1)!),
        },
      };
    })
    .sort((a, b) => b.postings - a.postings || a.role.localeCompare(b.role));
}
