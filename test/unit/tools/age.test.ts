/**
 * How old every time field is at retrieval, in words a model repeats correctly, against the
 * cadence the API states; pinned at fixed clocks, with a future timestamp and a missing one.
 */
import { describe, expect, it } from 'vitest';
import { ageSeconds, cadenceSeconds } from '../../../src/contract/age.js';
import type { ApiResult } from '../../../src/api/answers.js';
import { buildProvenance } from '../../../src/api/provenance-record.js';
import { describeAge, describeCadence } from '../../../src/lib/age-words.js';
import { renderInterviewBrief } from '../../../src/render/interview-brief.js';
import { renderJobLine } from '../../../src/render/jobs.js';
import { renderMarketMap } from '../../../src/render/market-map.js';
import { renderProvenance } from '../../../src/render/provenance-line.js';
import { makeJob } from '../../helpers/fixtures.js';

const AT = Date.parse('2026-11-25T18:00:00Z');
const result = (meta: Record<string, unknown>, retrievedAt = '2026-11-25T18:00:00.000Z'): ApiResult<unknown> => ({
  data: {},
  meta,
  status: 200,
  path: '/x',
  retrievedAt,
});

describe('ages', () => {
  it.each([
    [0, 'just now'],
    [59, 'just now'],
    [60, '1 minute ago'],
    [5 * 60 + 30, '5 minutes ago'],
    [3 * 3_600, '3 hours ago'],
    [47 * 3_600, '47 hours ago'],
    [2 * 86_400, '2 days ago'],
    [23 * 86_400 + 12 * 3_600, '23 days ago'],
    [-30, 'just now'],
    [-3 * 3_600, "3 hours later than this server's clock (a clock is off)"],
    [null, 'age unknown'],
  ])('%s s reads "%s"', (seconds, words) => {
    expect(describeAge(seconds)).toBe(words);
  });

  it('reads ISO timestamps, a date alone from the start of its day, a legacy one with no timezone as UTC, and nothing else', () => {
    expect(ageSeconds('2026-11-25T17:00:00Z', AT)).toBe(3_600);
    expect(ageSeconds('2026-11-25T19:00:00+02:00', AT)).toBe(3_600);
    expect(ageSeconds('2026-11-16', AT)).toBe(9 * 86_400 + 18 * 3_600);
    expect(ageSeconds('2026-11-02 06:00:00', AT)).toBe(ageSeconds('2026-11-02T06:00:00Z', AT));
    expect(ageSeconds('2026-11-26T18:00:00Z', AT)).toBe(-86_400);
    for (const nonsense of [null, undefined, '', 'soon', '1', 'Nov 2, 2026'])
      expect(ageSeconds(nonsense, AT), String(nonsense)).toBeNull();
  });

  it('judges an age against a stated cadence', () => {
    expect(cadenceSeconds('weekly')).toBe(7 * 86_400);
    expect(cadenceSeconds('every 6 hours')).toBe(6 * 3_600);
    expect(cadenceSeconds('whenever')).toBeUndefined();
    expect(describeCadence('weekly', 7 * 86_400, 3 * 86_400)).toBe('weekly cadence: current');
    expect(describeCadence('weekly', 7 * 86_400, 23 * 86_400)).toBe('weekly cadence: 16 days past due, treat as stale');
    expect(describeCadence('whenever', undefined, 23 * 86_400)).toBe(
      'whenever cadence (not a cadence this server reads; judge by the age)',
    );
    expect(describeCadence('weekly', 7 * 86_400, null)).toBe(
      'weekly cadence; the age is unknown, so whether it is current is too',
    );
  });
});

describe('ages in results', () => {
  it('the provenance carries each age in seconds and says it in words; a legacy timestamp says it was read as UTC', () => {
    const p = buildProvenance(
      result({ source: 'map', generated_at: '2026-11-02 06:00:00', computed_at: '2026-11-02T06:07:45Z' }),
      'http',
      { cadence: 'weekly' },
    );
    expect(p).toMatchObject({
      age_s: 23 * 86_400 + 12 * 3_600,
      computed_age_s: 23 * 86_400 + 11 * 3_600 + 52 * 60 + 15,
      cadence: 'weekly',
      stale: true,
    });
    // computed_at's age reads as generated_at's, so it is said once.
    expect(renderProvenance(p)).toContain(
      'generated_at: 2026-11-02 06:00:00 (no timezone stated, read as UTC: 23 days ago) · computed_at: 2026-11-02T06:07:45Z ·',
    );
    const later = buildProvenance(
      result({ generated_at: '2026-11-02T06:00:00Z', computed_at: '2026-11-20T06:00:00Z' }),
      'http',
    );
    expect(renderProvenance(later)).toContain(
      'generated_at: 2026-11-02T06:00:00Z (23 days ago) · computed_at: 2026-11-20T06:00:00Z (5 days ago) ·',
    );
  });

  it('within its cadence it is not stale; with no cadence stated, no flag; with no timestamp, no age', () => {
    expect(buildProvenance(result({ generated_at: '2026-11-24T18:00:00Z' }), 'http', { cadence: 'weekly' }).stale).toBe(
      false,
    );
    expect(buildProvenance(result({ generated_at: '2026-11-24T18:00:00Z' }), 'http')).not.toHaveProperty('stale');
    const missing = buildProvenance(result({}), 'http', { cadence: 'weekly' });
    expect(missing).toMatchObject({ age_s: null, computed_age_s: null });
    expect(missing).not.toHaveProperty('stale');
    expect(renderProvenance(missing)).toContain('generated_at: not stated · computed_at: not stated');
  });

  it('a timestamp later than the clock says so rather than passing for fresh', () => {
    const p = buildProvenance(result({ generated_at: '2026-11-25T21:00:00Z' }), 'http');
    expect(p.age_s).toBe(-3 * 3_600);
    expect(renderProvenance(p)).toContain(
      "generated_at: 2026-11-25T21:00:00Z (3 hours later than this server's clock (a clock is off))",
    );
  });

  it("each job's last_seen, in the text and by job_id in the provenance", () => {
    expect(renderJobLine(makeJob({ job_id: 'j1', last_seen: '2026-11-16' }), AT)).toContain(
      'last_seen 2026-11-16 (9 days ago)',
    );
    expect(renderJobLine(makeJob({ job_id: 'j1', last_seen: null }), AT)).toContain('last_seen not stated');
  });

  it('one date shown on two job lines has one age in days; under two days the hours still tell', () => {
    const line = (last_seen: string) => renderJobLine(makeJob({ last_seen }), AT);
    expect(line('2026-11-16T01:00:00Z')).toContain('last_seen 2026-11-16 (9 days ago)');
    expect(line('2026-11-16T23:00:00Z')).toContain('last_seen 2026-11-16 (9 days ago)');
    expect(line('2026-11-25T06:00:00Z')).toContain('last_seen 2026-11-25 (12 hours ago)');
    expect(line('2026-11-24T23:00:00Z')).toContain('last_seen 2026-11-24 (19 hours ago)');
    const p = buildProvenance(result({}), 'http', {
      lastSeen: [
        ['j1', '2026-11-16'],
        ['j2', null],
      ],
    });
    expect(p.last_seen_age_s).toEqual({ j1: 9 * 86_400 + 18 * 3_600, j2: null });
  });

  it("the market map opens with its generation's age against its cadence", () => {
    const text = renderMarketMap(
      { generation: { generated_at: '2026-11-02 06:00:00', cadence: 'weekly' }, dimensions: [] },
      AT,
    );
    expect(text.split('\n')[0]).toBe(
      'Generated 2026-11-02 06:00:00 (no timezone stated, read as UTC), 23 days ago; weekly cadence: 16 days past due, treat as stale.',
    );
    expect(
      renderMarketMap(
        { generation: { generated_at: '2026-11-22T06:00:00Z', cadence: 'weekly' }, dimensions: [] },
        AT,
      ).split('\n')[0],
    ).toBe('Generated 2026-11-22T06:00:00Z, 3 days ago; weekly cadence: current.');
  });

  it('an interview brief opens with its freshness metadata, aged', () => {
    const text = renderInterviewBrief(
      {
        company: { name: 'Acme' },
        freshness: {
          generated_at: '2026-11-16T00:55:00Z',
          status: 'fresh',
          observation_window: { from: '2026-10-17', to: '2026-11-16' },
        },
      },
      AT,
    );
    expect(text.split('\n')[0]).toBe(
      'Freshness: generated 2026-11-16T00:55:00Z, 9 days ago, which the API labels "fresh"; observation window 2026-10-17 to 2026-11-16.',
    );
    // What that line says is not fenced again; the rest of the freshness member is.
    expect(text).not.toContain('observation_window');
    expect(text).not.toMatch(/^freshness:/m);
    const more = renderInterviewBrief(
      {
        company: { name: 'Acme' },
        freshness: { generated_at: '2026-11-16T00:55:00Z', status: 'fresh', evidence_count: 4 },
      },
      AT,
      '2026-11-16T00:55:00Z',
    );
    // The answer's own generated_at is on its provenance line: here only its age, beside the label.
    expect(more.split('\n')[0]).toBe('Freshness: generated 9 days ago, which the API labels "fresh".');
    expect(more).toContain('freshness:\n  evidence_count: 4\n');
  });

  it('a market map generated when the answer says it was says the age only, the timestamp being on the provenance line', () => {
    expect(
      renderMarketMap(
        { generation: { generated_at: '2026-11-02 06:00:00', cadence: 'weekly' }, dimensions: [] },
        AT,
        '2026-11-02 06:00:00',
      ).split('\n')[0],
    ).toBe('Generated 23 days ago; weekly cadence: 16 days past due, treat as stale.');
  });

  it("says a brief's status is the API's word, with the age beside it, even when no time is stated", () => {
    const text = renderInterviewBrief({ company: { name: 'Acme' }, freshness: { status: 'fresh' } }, AT);
    expect(text.split('\n')[0]).toBe('Freshness: the API labels it "fresh" (generation time not stated).');
  });
});
