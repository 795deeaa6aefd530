/**
 * Frontier-AI evidence items on the offline hosted surface: what an AI company has shown of its
 * frontier work (model releases, evaluations, safety reports, compute), each with its kind, date
 * and evidence class. Invented by invented.ts for the snapshot's AI companies.
 */
import type { Dataset, InterviewCompany } from '../dataset.js';
import { dateBefore, unit } from './invented.js';

const KINDS = [
  { kind: 'model_release', title: (n: string) => `${n} releases a new model family` },
  { kind: 'evaluation', title: (n: string) => `${n} publishes third-party evaluation results` },
  { kind: 'safety_report', title: (n: string) => `${n} publishes a safety framework update` },
  { kind: 'compute', title: (n: string) => `${n} announces a training-compute expansion` },
] as const;

const isAi = (c: InterviewCompany) => (c.data.company as { domain_id?: unknown } | undefined)?.domain_id === 'ai';

/** Items of AI companies (one company's when given), newest first, at most `limit`; `matching`: how many there are in all. */
export function frontierEvidence(
  dataset: Dataset,
  filter: { company?: InterviewCompany | undefined; kind?: string | undefined; limit: number },
) {
  const companies = filter.company ? [filter.company] : dataset.companies.filter(isAi);
  const items = companies.flatMap((company) =>
    KINDS.filter(
      // Not every company has shown every kind: about two in three have.
      ({ kind }) =>
        (filter.kind === undefined || filter.kind === kind) && unit(`${company.company_id}:${kind}`) >= 0.35,
    ).map(({ kind, title }) => ({
      company: { company_id: company.company_id, name: company.name },
      kind,
      title: title(company.name),
      observed_on: dateBefore(dataset.snapshot.generated_at, 3 + unit(`${company.slug}:${kind}:when`) * 200),
      evidence_class: unit(`${company.slug}:${kind}:class`) < 0.5 ? 'first_party' : 'third_party',
      url: `https://evidence.example.com/${company.slug}/${kind.replace('_', '-')}`,
    })),
  );
  items.sort((a, b) => b.observed_on.localeCompare(a.observed_on));
  return { items: items.slice(0, filter.limit), matching: items.length };
}
