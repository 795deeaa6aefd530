/**
 * Small, spec-valid API bodies for every test that needs one; each call returns a fresh copy to
 * mutate. Overrides are loosely typed on purpose: tests also build invalid bodies from them.
 */
import type { JobListData, PublicJob, ResponseMeta } from '../../src/contract/schemas.js';

export function makeJob(overrides: Record<string, unknown> = {}): PublicJob {
  return {
    job_id: 'job_ai_0001',
    title: 'Staff ML Engineer',
    company: { id: 7, name: 'Acme Labs', type: 'ai_lab', type_confidence: 'high', logo_url: '/logos/acme.png' },
    role: { id: 'ml-eng', label: 'Machine learning engineer', confidence: 0.92 },
    salary: { min: 180000, max: 220000, currency: 'USD', source: 'disclosed', display: '$180k–$220k / year' },
    freshness: 'live',
    last_seen: '2026-11-19T08:12:00Z',
    location_text: 'San Francisco',
    location_country: 'US',
    remote_status: 'hybrid',
    seniority_level: 'staff',
    skills: ['python', 'pytorch'],
    url: 'https://jobs.example.com/acme/1',
    domain_id: 'ai',
    domain_assignment: 'explicit',
    ...overrides,
  } as PublicJob;
}

function pagination(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { page: 1, per_page: 20, total: 1, total_pages: 1, has_next: false, has_prev: false, ...overrides };
}

function meta(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    source: 'jobs-read-model',
    generated_at: '2026-11-20T06:00:00Z',
    computed_at: '2026-11-20T06:05:00Z',
    ...overrides,
  };
}

export function envelope(data: unknown, metaOverrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { success: true, data, meta: meta(metaOverrides) };
}

/** A job-list envelope whose pagination agrees with `jobs` unless overridden. */
export function jobList(
  jobs: unknown[] = [makeJob()],
  pageOverrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return envelope({ jobs, pagination: pagination({ total: jobs.length, ...pageOverrides }) });
}

/** Page `page` of `total` jobs, `perPage` a page, holding `jobs`. */
export function jobListBody(jobs: PublicJob[], page = 1, perPage = 20, total = jobs.length) {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const pages = {
    page,
    per_page: perPage,
    total,
    total_pages: totalPages,
    has_next: page < totalPages,
    has_prev: page > 1,
  };
  return jobList(jobs, pages) as { success: true; data: JobListData; meta: ResponseMeta };
}
