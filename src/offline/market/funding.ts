/**
 * A company's funding rounds on the offline hosted surface: invented from the company's stated
 * stage (a Series C company has a seed, an A, a B and a C), with amounts and dates picked by
 * invented.ts. Companies funded otherwise (public, bootstrapped, token or treasury) say so instead.
 */
import type { Dataset, InterviewCompany } from '../dataset.js';
import { dateBefore, unit } from './invented.js';

const SERIES = ['Seed', 'Series A', 'Series B', 'Series C', 'Series D'] as const;
/** Typical round sizes in millions of USD, low and high, per stage. */
const SIZE_M: Record<(typeof SERIES)[number], [number, number]> = {
  Seed: [2, 8],
  'Series A': [10, 30],
  'Series B': [30, 90],
  'Series C': [80, 200],
  'Series D': [150, 400],
};

interface FundingRound {
  round: string;
  announced_on: string;
  amount_usd: number;
  lead_investor: string;
  evidence_class: 'announced';
}

export interface FundingAnswer {
  company: { company_id: number; slug: string; name: string; stage: string | null };
  rounds: FundingRound[];
  note?: string;
}

const INVESTORS = ['Foxglove Ventures', 'Brightwater Capital', 'Ironbark Partners', 'Summit Lane', 'Orchid Fund'];

/** By company id (the integer a job carries, or its digits), slug or exact name, any case. */
export function findCompany(dataset: Dataset, key: string | number): InterviewCompany | undefined {
  const wanted = String(key).trim().toLowerCase();
  return dataset.companies.find(
    (c) => String(c.company_id) === wanted || c.slug === wanted || c.name.toLowerCase() === wanted,
  );
}

export function fundingRounds(dataset: Dataset, company: InterviewCompany): FundingAnswer {
  const stage = (company.data.company as { stage?: unknown } | undefined)?.stage;
  const stated = typeof stage === 'string' ? stage : null;
  const reached = SERIES.indexOf(stated as (typeof SERIES)[number]);
  const head = { company_id: company.company_id, slug: company.slug, name: company.name, stage: stated };
  if (reached < 0)
    return { company: head, rounds: [], note: `no priced rounds: the company is ${stated ?? 'of unstated stage'}` };
  let daysBefore = 60 + unit(`${company.company_id}:recent`) * 300;
  const rounds: FundingRound[] = [];
  for (let i = reached; i >= 0; i--) {
    const name = SERIES[i]!;
    const [low, high] = SIZE_M[name];
    const amountM = low + unit(`${company.company_id}:${name}`) * (high - low);
    rounds.unshift({
      round: name,
      announced_on: dateBefore(dataset.snapshot.generated_at, daysBefore),
      amount_usd: Math.round(amountM * 10) * 100_000,
      lead_investor: INVESTORS[Math.floor(unit(`${company.slug}:${name}:lead`) * INVESTORS.length)]!,
      evidence_class: 'announced',
    });
    daysBefore += 300 + unit(`${company.company_id}:${name}:gap`) * 400;
  }
  return { company: head, rounds };
}
