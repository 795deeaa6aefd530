/**
 * The interview-brief read. When several identifiers are given, the most stable one wins:
 * company_id, then slug, then name (the spec leaves this open; the order follows its advice that
 * name is only for when no stable identifier exists). Every identifier given is still validated.
 */
import type { Dataset, InterviewCompany } from './dataset.js';
import { errorResponse, successResponse } from './responses.js';
import type { ParamValues } from './validate-params.js';

const KEYS = ['company_id', 'slug', 'name'] as const;
type LookupKey = (typeof KEYS)[number];

const normalizeName = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

function find(dataset: Dataset, by: LookupKey, value: string): InterviewCompany | undefined {
  // The query string carries the integer id as its digits.
  if (by === 'company_id') return dataset.companies.find((c) => String(c.company_id) === value);
  if (by === 'slug') return dataset.companies.find((c) => c.slug === value);
  const wanted = normalizeName(value);
  return dataset.companies.find((c) => normalizeName(c.name) === wanted);
}

export function interviewResponse({ dataset }: { dataset: Dataset }, values: ParamValues): Response {
  const given = KEYS.filter((key) => typeof values[key] === 'string');
  const by = given[0];
  if (by === undefined) {
    return errorResponse(
      400,
      'missing_parameter',
      'one of company_id, slug or name is required (company_id or slug preferred)',
      { parameter: 'company_id' },
    );
  }
  const value = values[by] as string;
  const company = find(dataset, by, value);
  if (!company)
    return errorResponse(404, 'not_found', `no interview brief for ${by} ${JSON.stringify(value)} in this snapshot`);
  // A company id is echoed as the integer it is, not as the query's digits: one type wherever it is written.
  const lookup = { by, value: by === 'company_id' ? company.company_id : value, ignored: given.slice(1) };
  return successResponse({ ...company.data, lookup }, { ...company.meta });
}
