/**
 * What every part of the snapshot is built from: the seeded random source, the word lists, the
 * snapshot's moment and the small formatting helpers.
 */
import { readFileSync } from 'node:fs';
export const SOURCE = 'offline-snapshot (embedded service-mcp dataset of fictional sample data, not live)';
export const SNAPSHOT_AT = Date.UTC(2026, 10, 19, 6, 0, 0);
export const DAY = 86_400_000;
export const JOB_COUNT = 362;

interface Country {
  name: string;
  currency: string;
  payFactor: number;
  cities: string[];
}
interface CompanyVocab {
  name: string;
  type: string | null;
  domain: 'ai' | 'web3';
  country: string | null;
  city: string | null;
  focus?: string;
  product?: string;
  stage?: string;
  headcount?: string;
  topics?: string[];
  unresolved?: boolean;
}
interface RoleVocab {
  id: number | string;
  label: string;
  title: string;
  skills: string[];
}
interface DimensionVocab {
  id: string;
  label: string;
  layer: string;
  domain_id: 'ai' | 'web3';
  skills: string[];
}
export interface Vocabulary {
  countries: Record<string, Country>;
  fxToUsd: Record<string, number>;
  companies: CompanyVocab[];
  roles: Record<'ai' | 'web3', RoleVocab[]>;
  /** Skills any posting may add to its role's. */
  extraSkills: string[];
  marketMap: DimensionVocab[];
}

export interface Company extends CompanyVocab {
  id: number | null;
  slug: string;
  typeConfidence: string | null;
  logoUrl: string | null;
}

/** mulberry32: tiny, fast and good enough to make varied but reproducible data. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;
  const weighted = <T>(entries: ReadonlyArray<readonly [T, number]>): T => {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let roll = next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1]![0];
  };
  /** `count` distinct items, kept in their original order. */
  const sample = <T>(items: readonly T[], count: number): T[] => {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(count, items.length)) chosen.add(Math.floor(next() * items.length));
    return [...chosen].sort((a, b) => a - b).map((i) => items[i]!);
  };
  return { next, int, pick, chance, weighted, sample };
}
export type Random = ReturnType<typeof createRandom>;

export function loadVocabulary(): Vocabulary {
  return JSON.parse(readFileSync(new URL('../../src/contract/vocabulary.json', import.meta.url), 'utf8')) as Vocabulary;
}

export const slugify = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
export const pad = (n: number, width: number) => String(n).padStart(width, '0');
export const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const isoSeconds = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
export const round2 = (n: number) => Math.round(n * 100) / 100;
