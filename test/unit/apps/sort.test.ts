/** The job list's orders: by last_seen, and by salary within each currency (never converted). */
import { describe, expect, it } from 'vitest';
import { compareJobs } from '../../../src/apps/job-list/sort.js';

const salary = (currency: string, min: number | null, max: number | null) => ({
  currency,
  min,
  max,
  source: 'disclosed',
  display: '',
});
const JOBS = [
  { job_id: 'a', salary: salary('USD', 100, 150), last_seen: '2026-11-01' },
  { job_id: 'b', salary: null, last_seen: null },
  { job_id: 'c', salary: salary('GBP', 90, null), last_seen: '2026-11-19T04:21:00Z' },
  { job_id: 'd', salary: salary('USD', 200, 250), last_seen: '2026-11-03T10:00:00Z' },
  { job_id: 'e', salary: salary('USD', null, null), last_seen: 'not a date' },
];
const order = (key: 'salary' | 'last_seen', direction: 'ascending' | 'descending') =>
  [...JOBS].sort(compareJobs({ key, direction })).map((job) => job.job_id);

describe('job list sort', () => {
  it('orders salaries by their upper bound within a currency, currencies apart, jobs without an amount last', () => {
    expect(order('salary', 'descending')).toEqual(['c', 'd', 'a', 'b', 'e']);
    expect(order('salary', 'ascending')).toEqual(['c', 'a', 'd', 'b', 'e']);
  });

  it('orders by last_seen, dates and date-times alike, unreadable or missing ones last', () => {
    expect(order('last_seen', 'descending')).toEqual(['c', 'd', 'a', 'b', 'e']);
    expect(order('last_seen', 'ascending')).toEqual(['a', 'd', 'c', 'b', 'e']);
  });
});
