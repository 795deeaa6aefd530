import { beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEngine, type OfflineEngine } from '../../../src/offline/engine.js';
import { paginate } from '../../../src/offline/jobs-query.js';
import { offlineClient } from '../../helpers/offline-client.js';

let engine: OfflineEngine;
beforeAll(async () => {
  engine = await createOfflineEngine();
});

describe('pagination', () => {
  it.each([1, 7, 20, 33, 100])('pages of %i concatenate to the whole result, without duplicates', async (perPage) => {
    const client = offlineClient(engine);
    const expected = engine.dataset.jobs.filter((j) => j.active && j.job.domain_id === 'web3').map((j) => j.job.job_id);
    const ids: string[] = [];
    let page = 1;
    for (;;) {
      const { data } = await client.searchJobs({ domain: 'web3', page, per_page: perPage });
      const p = data.pagination;
      expect(p).toEqual({
        page,
        per_page: perPage,
        total: expected.length,
        total_pages: Math.ceil(expected.length / perPage),
        has_next: page < p.total_pages,
        has_prev: page > 1,
      });
      expect(data.jobs.length).toBe(p.has_next ? perPage : expected.length - (page - 1) * perPage);
      ids.push(...data.jobs.map((j) => j.job_id));
      if (!p.has_next) break;
      page++;
    }
    expect(page).toBe(Math.ceil(expected.length / perPage));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expected);
  });

  it('a page beyond the last is empty, with the true totals', async () => {
    const { data } = await offlineClient(engine).listJobs({ page: 999, per_page: 50 });
    const total = engine.dataset.jobs.filter((j) => j.active).length;
    expect(data.jobs).toEqual([]);
    expect(data.pagination).toEqual({
      page: 999,
      per_page: 50,
      total,
      total_pages: Math.ceil(total / 50),
      has_next: false,
      has_prev: true,
    });
  });

  it('an empty result still has one page', async () => {
    const { data } = await offlineClient(engine).searchJobs({ q: 'zzzz-no-such-term' });
    expect(data.jobs).toEqual([]);
    expect(data.pagination).toEqual({
      page: 1,
      per_page: 20,
      total: 0,
      total_pages: 1,
      has_next: false,
      has_prev: false,
    });
  });

  it('defaults to page 1 of 20', async () => {
    const { data } = await offlineClient(engine).listJobs();
    expect(data.pagination).toMatchObject({ page: 1, per_page: 20, has_prev: false, has_next: true });
    expect(data.jobs).toHaveLength(20);
  });

  it('paginate() math at the edges', () => {
    expect(paginate(0, 1, 20)).toEqual({
      page: 1,
      per_page: 20,
      total: 0,
      total_pages: 1,
      has_next: false,
      has_prev: false,
    });
    expect(paginate(20, 1, 20)).toMatchObject({ total_pages: 1, has_next: false });
    expect(paginate(21, 1, 20)).toMatchObject({ total_pages: 2, has_next: true });
    expect(paginate(21, 2, 20)).toMatchObject({ has_next: false, has_prev: true });
  });
});
