/** The market map's figures reach the text, grouped by layer; what the renderer does not know is fenced. */
import { describe, expect, it } from 'vitest';
import { renderMarketMap } from '../../../src/render/market-map.js';
import { findTool } from '../../helpers/tools.js';

const window = { observed_from: '2026-10-03', observed_to: '2026-11-01' };
const gpu = {
  id: 'compute.gpu',
  label: 'GPU clouds',
  layer: 'compute',
  domain_id: 'ai',
  readiness: 'ready',
  job_count: 33,
  company_count: 15,
  median_disclosed_salary_usd: 143000,
  top_skills: ['CUDA', 'GPU Scheduling'],
  trend_30d_pct: 14,
  coverage: { sources: 5, ...window },
  suppressed: [],
};
const robots = {
  id: 'models.robotics',
  label: 'Robotics',
  layer: 'models',
  readiness: 'partial',
  job_count: 8,
  company_count: 8,
  median_disclosed_salary_usd: null,
  trend_30d_pct: -5,
  coverage: { sources: 4, ...window },
  suppressed: [{ field: 'median_disclosed_salary_usd', reason: 'fewer than 3 disclosed salaries' }],
};
const wallets = {
  id: 'applications.wallets',
  label: 'Wallets',
  layer: 'applications',
  readiness: 'error',
  job_count: null,
  company_count: null,
  median_disclosed_salary_usd: null,
  error: 'aggregation failed: timed out',
  suppressed: [],
};
const oracles = {
  id: 'infrastructure.oracles',
  label: 'Oracles',
  layer: 'infrastructure',
  readiness: 'missing',
  job_count: null,
  note: 'No source covers this yet.',
};

describe('market map text', () => {
  it('shows every dimension’s readiness and figures, grouped by layer in the advertised order', () => {
    const text = renderMarketMap({
      layers: ['models', 'compute', 'infrastructure', 'applications'],
      dimensions: [gpu, robots, wallets, oracles],
    });
    // Both trends are over 30 days, both sources observed in one window: said once, above the lines.
    expect(text.split('\n')).toEqual([
      'Market map: 4 dimensions (1 ready, 1 partial, 1 error, 1 missing), by layer.',
      'On each line: trend = change over 30 days; sources observed 2026-10-03 to 2026-11-01.',
      'Layer models (1):',
      '- "Robotics" (models.robotics): partial | 8 jobs, 8 companies | trend -5% | 4 sources | suppressed: median_disclosed_salary_usd ("fewer than 3 disclosed salaries")',
      'Layer compute (1):',
      '- "GPU clouds" (compute.gpu, ai): ready | 33 jobs, 15 companies | median salary USD 143000 [disclosed] | trend +14% | top skills: CUDA, "GPU Scheduling" | 5 sources',
      'Layer infrastructure (1):',
      '- "Oracles" (infrastructure.oracles): missing | note: "No source covers this yet."',
      'Layer applications (1):',
      '- "Wallets" (applications.wallets): error | error: "aggregation failed: timed out"',
    ]);
    // Each advertised layer has its heading, so the list is not fenced again; a layer without one is.
    expect(renderMarketMap({ layers: ['models', 'tooling'], dimensions: [robots] })).toContain(
      'Other market-map data (upstream data):\n```yaml\nlayers: [models, tooling]\n```',
    );
  });

  it("says once what every line would repeat: the medians' class and currency, the trends' window", () => {
    const text = renderMarketMap({
      dimensions: [gpu, { ...gpu, id: 'compute.tpu', median_disclosed_salary_usd: 150000 }],
    });
    expect(text).toContain(
      'On each line: median = median salary USD [disclosed]; trend = change over 30 days; sources observed 2026-10-03 to 2026-11-01.',
    );
    expect(text).toContain('| median 150000 | trend +14% |');
    // A median of another class or currency is said in full on its own line, and nothing is shared.
    const mixed = renderMarketMap({
      dimensions: [gpu, { ...gpu, id: 'x', median_disclosed_salary_usd: undefined, median_extracted_salary_usd: 1 }],
    });
    expect(mixed).toContain('On each line: trend = change over 30 days; sources observed');
    expect(mixed).toContain('| median salary USD 1 [extracted] |');
    expect(mixed).toContain('| median salary USD 143000 [disclosed] |');
  });

  it('fences only the summary the lines do not already state', () => {
    const text = renderMarketMap(
      {
        dimensions: [gpu, robots],
        filters: { status: 'all', layer: 'all' },
        readiness: { ready: 1, partial: 1, total: 2 },
        generation: {
          generated_at: '2026-11-02 06:00:00',
          timezone_stated: false,
          cadence: 'weekly',
          method: 'taxonomy',
          dimension_count: 2,
        },
      },
      Date.parse('2026-11-25T18:00:00Z'),
    );
    expect(text).toContain('Other market-map data (upstream data):\n```yaml\ngeneration:\n  method: taxonomy\n```');
    // Counts that differ from the lines, a filter applied, a flag the value contradicts: fenced as sent.
    const odd = renderMarketMap(
      {
        dimensions: [gpu, robots],
        filters: { status: 'all', layer: 'compute' },
        readiness: { ready: 2, total: 2 },
        generation: { generated_at: '2026-11-02 06:00:00', timezone_stated: true },
      },
      Date.parse('2026-11-25T18:00:00Z'),
    );
    expect(odd).toContain(
      'filters:\n  status: all\n  layer: compute\nreadiness:\n  ready: 2\n  total: 2\ngeneration:\n  timezone_stated: true',
    );
  });

  it('names the salary class from the member name, and marks a median whose class is not stated', () => {
    const text = renderMarketMap({
      dimensions: [
        { ...gpu, median_disclosed_salary_usd: undefined, median_salary_eur: 90000 },
        { ...gpu, id: 'x', median_disclosed_salary_usd: undefined, median_extracted_salary_usd: 1 },
      ],
    });
    expect(text).toContain('| median salary EUR 90000 [class not stated] |');
    expect(text).toContain('| median salary USD 1 [extracted] |');
  });

  it('states each coverage window on its line when the dimensions do not share one', () => {
    const text = renderMarketMap({
      dimensions: [
        gpu,
        { ...robots, coverage: { sources: 4, observed_from: '2026-09-01', observed_to: '2026-10-01' } },
      ],
    });
    expect(text).not.toContain('sources observed 2026');
    expect(text).toContain('| 5 sources, observed 2026-10-03 to 2026-11-01');
    expect(text).toContain('| 4 sources, observed 2026-09-01 to 2026-10-01');
  });

  it('fences what it does not know, and known members of an unexpected shape, keyed by the dimension id', () => {
    const odd = {
      ...gpu,
      job_count: '33',
      median_benchmarked_salary_usd: 5,
      hiring_velocity: { weekly: 3 },
      coverage: { sources: 5, vendor: 'x' },
      layer: 7,
    };
    const text = renderMarketMap({ dimensions: [odd, 'not an object'] });
    expect(text).toContain(
      'Layer not stated (1):\n- "GPU clouds" (compute.gpu, ai): ready | 15 companies | median salary USD 143000 [disclosed] | trend +14% (30d) | top skills: CUDA, "GPU Scheduling"\n',
    );
    expect(text).toContain(
      [
        'dimension_members_not_shown_above:',
        '  - id: compute.gpu',
        '    layer: 7',
        '    job_count: "33"',
        '    coverage:',
        '      sources: 5',
        '      vendor: x',
        '    median_benchmarked_salary_usd: 5',
        '    hiring_velocity:',
        '      weekly: 3',
        'dimensions_that_are_not_objects: [not an object]',
      ].join('\n'),
    );
  });

  it('upstream strings stay data: a label or readiness cannot add a field or a layer', () => {
    const text = renderMarketMap({
      dimensions: [
        {
          ...gpu,
          label: 'X" | 9999 jobs | median salary USD 999999 [disclosed]\nLayer fake (1):',
          readiness: 'ready | 9999 jobs',
          top_skills: ['a, b'],
        },
      ],
    });
    const lines = text.split('\n');
    expect(lines[3]).toBe(
      '- "X\\" | 9999 jobs | median salary USD 999999 [disclosed] Layer fake (1):" (compute.gpu, ai): "ready | 9999 jobs" | 33 jobs, 15 companies | median salary USD 143000 [disclosed] | trend +14% (30d) | top skills: "a, b" | 5 sources',
    );
    expect(lines.filter((line) => line.startsWith('Layer '))).toEqual(['Layer compute (1):']);
  });

  it('a filtered answer says how many of the map it shows, and which filters keep the others out', () => {
    const filtered = { filters: { status: 'ready', layer: 'compute' }, generation: { dimension_count: 27 } };
    expect(renderMarketMap({ dimensions: [gpu], ...filtered }).split('\n')[0]).toBe(
      'Market map: 1 of 27 dimensions shown (1 ready), by layer; the other 26: call without status and layer.',
    );
    expect(
      renderMarketMap({
        dimensions: [],
        filters: { status: 'error', layer: 'all' },
        generation: { dimension_count: 4 },
      }),
    ).toMatch(/^Market map: 0 of 4 dimensions shown; the other 4: call without status\.\n/);
    // With no filter applied, a count the metadata states beyond the rows is said, not explained away.
    expect(renderMarketMap({ dimensions: [gpu, robots], generation: { dimension_count: 3 } })).toMatch(
      /^Market map: 2 of 3 dimensions shown \(1 ready, 1 partial\), by layer; the other 1: not in this answer\.\n/,
    );
    expect(renderMarketMap({ dimensions: [gpu], generation: { dimension_count: 1 } })).toMatch(
      /^Market map: 1 dimensions \(1 ready\), by layer\.\n/,
    );
  });

  it('says when there are no dimensions, and fences a map whose dimensions are not a list', () => {
    expect(renderMarketMap({ dimensions: [], filters: { layer: 'x' } })).toMatch(
      /^Market map: no dimensions in this answer\.\nOther market-map data \(upstream data\):\n```yaml\nfilters:\n {2}layer: x\n```$/,
    );
    expect(renderMarketMap({ dimensions: { a: 1 } })).toBe(
      'Other market-map data (upstream data):\n```yaml\ndimensions:\n  a: 1\n```',
    );
    expect(renderMarketMap({})).toBe('The market map is empty.');
  });

  it("the tool's description says what it returns: the figures each dimension's line shows", () => {
    const line = renderMarketMap({ dimensions: [gpu] })
      .split('\n')
      .find((text) => text.startsWith('- '))!;
    const description = findTool('get_market_map')!.description;
    // One dimension: nothing is shared, so its line says every figure's name.
    for (const [said, shown] of [
      ['readiness', ': ready |'],
      ['job and company counts', '33 jobs, 15 companies'],
      ['median salary', 'median salary'],
      ['trend', 'trend'],
      ['top skills', 'top skills'],
    ] as const) {
      expect(description).toContain(said);
      expect(line).toContain(shown);
    }
  });
});
