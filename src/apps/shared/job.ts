/**
 * One job posting in full, for the job view and a job opened from the job list: every member, its
 * evidence, and the link to its source, which the host opens (a view never navigates itself).
 */
import type { App } from '@modelcontextprotocol/ext-apps';
import { isRecord, num, str, strings, type Json } from './data.js';
import { facts, h } from './dom.js';
import { hostLink } from './links.js';
import { salaryCell } from './salary.js';
import { otherMembers, valueNode } from './values.js';

const LAID_OUT = [
  'job_id',
  'title',
  'company',
  'role',
  'salary',
  'freshness',
  'last_seen',
  'location_text',
  'location_country',
  'remote_status',
  'seniority_level',
  'skills',
  'url',
  'domain_id',
  'domain_assignment',
  'requirements',
  'operating_expectations',
  'proof_signals',
  'evidence_quality',
];

export function location(job: Json): string {
  const place = str(job.location_text);
  const country = str(job.location_country);
  if (place && country && !place.includes(country)) return `${place}, ${country}`;
  return place ?? country ?? 'not stated';
}

function company(job: Json): string {
  const record = isRecord(job.company) ? job.company : {};
  const name = str(record.name) ?? 'company not stated';
  const type = str(record.type);
  const confidence = str(record.type_confidence);
  return type ? `${name} (${type}${confidence ? `, ${confidence} confidence` : ''})` : name;
}

function role(job: Json): string | undefined {
  if (!isRecord(job.role)) return undefined;
  const confidence = num(job.role.confidence);
  return `${str(job.role.label) ?? 'not stated'}${confidence === undefined ? '' : ` (confidence ${confidence})`}`;
}

function evidence(job: Json): HTMLElement | null {
  const parts = (['evidence_quality', 'proof_signals', 'requirements', 'operating_expectations'] as const).filter(
    (key) => job[key] !== undefined,
  );
  if (parts.length === 0) return null;
  return h(
    'section',
    { class: 'evidence' },
    h('h3', {}, 'Evidence and requirements'),
    facts(parts.map((key) => [key.replace(/_/g, ' '), valueNode(job[key])])),
  );
}

/** `heading` is h1 when the posting is the whole view, h2 when it opens inside the job list. */
export function jobDetail(app: App, job: Json, predictionsHidden: boolean, heading: 'h1' | 'h2'): HTMLElement {
  const skills = strings(job.skills);
  const url = str(job.url);
  return h(
    'article',
    { class: 'job', 'data-job-id': str(job.job_id) },
    h(heading, { tabindex: -1, class: 'title' }, str(job.title) ?? 'Untitled posting'),
    h('p', { class: 'company' }, company(job)),
    h('p', { class: 'pay' }, 'Salary: ', salaryCell(job.salary, predictionsHidden)),
    facts([
      ['Job id', str(job.job_id)],
      ['Role', role(job)],
      ['Seniority', str(job.seniority_level) ?? 'not stated'],
      ['Location', location(job)],
      ['Remote status', str(job.remote_status) ?? 'not stated'],
      ['Freshness', str(job.freshness)],
      ['Last seen', str(job.last_seen) ?? 'not stated'],
      ['Domain', `${str(job.domain_id) ?? 'not stated'} (${str(job.domain_assignment) ?? 'assignment not stated'})`],
    ]),
    skills.length > 0
      ? h('ul', { class: 'chips', 'aria-label': 'Skills' }, ...skills.map((skill) => h('li', {}, skill)))
      : null,
    h(
      'p',
      { class: 'source' },
      ...(url
        ? ['Source: ', hostLink(app, url, 'Open the source posting')]
        : ['No link to the source posting is stated.']),
    ),
    evidence(job),
    otherMembers(job, LAID_OUT),
    h('p', { class: 'hint' }, 'A posting is evidence of demand, not of a hire.'),
  );
}
