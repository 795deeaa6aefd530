/**
 * The shape of the embedded snapshot (snapshot.json, written by scripts/generate-snapshot.ts). Jobs
 * are stored as the API projects them, plus what the engine needs and the API never shows: whether
 * a job is still active, and the period its salary is quoted in (for the annualized thresholds).
 */
import type { PublicJob } from '../contract/schemas.js';

export type SalaryPeriod = 'year' | 'month' | 'hour';
/** What a salary quoted per period comes to in a year. */
export const PER_YEAR: Record<SalaryPeriod, number> = { year: 1, month: 12, hour: 2_080 };
export type Readiness = 'ready' | 'partial' | 'missing' | 'error';

interface SnapshotMeta {
  source: string;
  /** Generation timestamp; the market map's is a legacy one without a timezone on purpose. */
  generated_at: string;
  computed_at: string;
}

export interface StoredJob {
  /** Inactive jobs stay in the dataset so that detail can answer 404 for a real, closed id. */
  active: boolean;
  /** Null when the job has no salary. */
  salary_period: SalaryPeriod | null;
  job: PublicJob;
}

export interface InterviewCompany {
  /** The integer a job's company.id is: one type wherever the id is written. */
  company_id: number;
  slug: string;
  name: string;
  meta: SnapshotMeta;
  /** The interview-preparation package, served as `data` verbatim. */
  data: Record<string, unknown>;
}

export interface MarketMapDimension {
  id: string;
  label: string;
  layer: string;
  readiness: Readiness;
  [member: string]: unknown;
}

interface MarketMap {
  meta: SnapshotMeta;
  /** The layer values the `layer` filter accepts (besides `all`). */
  layers: string[];
  generation: Record<string, unknown>;
  dimensions: MarketMapDimension[];
}

export interface Dataset {
  schema_version: 1;
  seed: number;
  /** Metadata of the jobs read model, the discovery document and health. */
  snapshot: SnapshotMeta & { observation_window: { from: string; to: string } };
  /** USD per one unit of each currency, fixed in the snapshot so thresholds are deterministic. */
  fx_to_usd: Record<string, number>;
  /** In response order (most recently seen first). */
  jobs: StoredJob[];
  companies: InterviewCompany[];
  market_map: MarketMap;
}

let cached: Promise<Dataset> | undefined;

/**
 * The bundled snapshot, imported on first use so that neither the CLI's start-up nor the live
 * (non-offline) path pays for parsing it.
 */
export function loadSnapshot(): Promise<Dataset> {
  cached ??= import('./snapshot.json', { with: { type: 'json' } }).then(
    (module) => module.default as unknown as Dataset,
  );
  return cached;
}
