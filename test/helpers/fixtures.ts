/** Small, valid API bodies for unit tests; each call returns a fresh copy to mutate. */
import type { PublicJob } from '../../src/api/schemas.js';

export function makeJob(overrides: Partial<PublicJob> & Record<string, unknown> = {}): PublicJob {
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

export function jobListBody(jobs: PublicJob[], page = 1, perPage = 20, total = jobs.length) {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  return {
    success: true,
    data: { jobs, pagination: { page, per_page: perPage, total, total_pages: totalPages, has_next: page < totalPages, has_prev: page > 1 } },
    meta: { source: 'jobs-read-model', generated_at: '2026-11-20T06:00:00Z', computed_at: '2026-11-20T06:05:00Z' },
  };
}
