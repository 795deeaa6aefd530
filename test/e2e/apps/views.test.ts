/**
 * The MCP Apps views in a real browser. The built server runs offline over HTTP; a host page
 * (ext-apps' AppBridge around a real SDK Client) shows each tool's view in a sandboxed frame. What
 * the view draws is checked against the structuredContent the server returned, its clicks must
 * reach the server as real tool calls, and no request may leave the frame. Screenshots go to the
 * system's temporary directory, and with UPDATE_SCREENSHOTS=1 (`npm run screenshots`) the README's
 * to docs/screenshots.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';
import { startHttpServer, type HttpServerProcess } from '../http-helpers.js';
import { launch, watch, type Browser, type Traffic } from './browser.js';
import { lowContrast } from './contrast.js';
import { startHostPage, type HostPage } from './host-page.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tool data is free-form JSON

const SCREENSHOTS = join(tmpdir(), 'service-mcp-view-screenshots');
/** The README shows these two; `npm run screenshots` writes them there. */
const README_SCREENSHOTS = ['job-list', 'market-map'];
const SALARY_WORDS: Record<string, RegExp> = {
  disclosed: /^disclosed$/,
  extracted: /^extracted$/,
  predicted: /model estimate/,
};

let host: HostPage;
let server: HttpServerProcess;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  host = await startHostPage();
  server = await startHttpServer(['--offline', '--allowed-origins', host.origin]);
  browser = await launch();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await host?.close();
});

interface Shown {
  page: Page;
  view: Frame;
  traffic: Traffic;
  uri: string;
  csp: Json;
  structured: Json;
  text: string;
}

/** Opens the host page and has it call `tool` and show the tool's view. */
async function show(tool: string, args: Json, theme: 'light' | 'dark' = 'light'): Promise<Shown> {
  const page = await browser.context.newPage();
  const traffic = await watch(page, [host.origin, server.origin]);
  await page.goto(`${host.origin}/?server=${encodeURIComponent(server.url)}`);
  const shown = await page.evaluate(
    ([name, input, mode]) =>
      (window as unknown as { host: { show: (...a: unknown[]) => Promise<Json> } }).host.show(name, input, mode),
    [tool, args, theme] as const,
  );
  const view = page.frames().find((frame) => frame !== page.mainFrame())!;
  await view.locator('h1, [role="alert"]:not([hidden])').first().waitFor();
  return {
    page,
    view,
    traffic,
    uri: shown.uri,
    csp: shown.csp,
    structured: shown.result.structuredContent,
    text: shown.result.content[0].text,
  };
}

/** The host page's tools/call requests for `tool`, with the results the server sent back. */
async function callsOf(traffic: Traffic, tool: string): Promise<Array<{ args: Json; result: Json }>> {
  const calls = traffic.rpc.filter(
    ({ body }) => (body as Json)?.method === 'tools/call' && (body as Json).params?.name === tool,
  );
  return Promise.all(
    calls.map(async ({ body, response }) => {
      const text = await response;
      const json = text.trimStart().startsWith('{')
        ? text
        : text
            .split('\n')
            .find((line) => line.startsWith('data: '))!
            .slice(6);
      return { args: (body as Json).params.arguments as Json, result: (JSON.parse(json) as Json).result as Json };
    }),
  );
}

function expectNothingLeftTheView(traffic: Traffic) {
  expect(traffic.fromViews, 'requests made by the view').toEqual([]);
  expect(traffic.refused, 'requests refused').toEqual([]);
  expect(traffic.violations, 'CSP reports').toEqual([]);
}

async function expectProvenance(view: Frame, provenance: Json) {
  const footer = view.locator('footer.provenance');
  await expect.poll(() => footer.textContent()).toContain(provenance.source);
  const text = (await footer.textContent())!;
  expect(text).toContain(provenance.generated_at);
  expect(text).toContain(provenance.computed_at);
  expect(text).toContain(provenance.retrieved_at);
  expect(await footer.locator('[data-flag="no-timezone"]').count()).toBe(
    provenance.generated_at_timezone === 'not_stated' ? 1 : 0,
  );
  expect(await footer.locator('[data-flag="stale"]').count()).toBe(provenance.stale === true ? 1 : 0);
  expect(await footer.locator('[data-reached]').getAttribute('data-reached')).toBe(provenance.reached);
  expect(await footer.locator('[data-fictional]').getAttribute('data-fictional')).toBe(String(provenance.fictional));
  if (provenance.fictional) expect(text).toContain("FICTIONAL sample data, by the API's own word");
  if (provenance.generated_at) expect(text).toMatch(/\((?:just now|\d+ (?:minute|hour|day)s? ago)\)/);
  expect(text).toMatch(
    provenance.cache?.hit
      ? new RegExp(`from the response cache, ${provenance.cache.age_s} s old`)
      : /not from the cache/,
  );
}

async function expectReadable(view: Frame) {
  expect(await view.evaluate(lowContrast), 'text below WCAG AA contrast').toEqual([]);
}

/**
 * The frame is sized to its content by the view's size-changed notifications; the viewport grows
 * to hold it all, since Chromium paints a sandboxed (out-of-process) frame only where it is visible.
 */
async function screenshot(page: Page, name: string, maxHeight = 1_400) {
  const viewport = page.viewportSize()!;
  const box = (await page.locator('iframe').boundingBox())!;
  await page.setViewportSize({ width: viewport.width, height: Math.ceil(box.y + box.height) });
  const clip = { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, maxHeight) };
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), clip });
  if (process.env.UPDATE_SCREENSHOTS === '1' && README_SCREENSHOTS.includes(name))
    await page.screenshot({ path: join(ROOT, 'docs/screenshots', `${name}.png`), clip });
  await page.setViewportSize(viewport);
}

describe('MCP Apps views in Chromium, through ext-apps AppBridge, against the built server', () => {
  it('job list: every row, salary badge and the provenance as in structuredContent; sorts; pages and opens a job through the host', async () => {
    const args = { per_page: 10, include_predicted_salaries: true };
    const { page, view, traffic, uri, csp, structured } = await show('search_jobs', args);
    expect(uri).toBe('ui://service-mcp/job-list.html');
    expect(csp).toEqual({ connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
    const jobs = structured.data.jobs as Json[];
    const rows = view.locator('tbody tr');
    expect(await rows.count()).toBe(jobs.length);
    const classes = new Set<string>();
    for (const [i, job] of jobs.entries()) {
      const row = rows.nth(i);
      expect(await row.getAttribute('data-job-id')).toBe(job.job_id);
      expect(await row.locator('button.open-job').textContent()).toBe(job.title);
      expect(await row.textContent()).toContain(job.company.name);
      expect(await row.locator('td[data-col="last_seen"]').textContent()).toBe(job.last_seen);
      const salary = row.locator('td[data-col="salary"]');
      if (job.salary === null) {
        expect(await salary.textContent()).toMatch(/^none/);
        expect(await salary.locator('.badge').count()).toBe(0);
        continue;
      }
      const badge = salary.locator('.badge');
      expect(await badge.getAttribute('data-class')).toBe(job.salary.source);
      expect(await badge.textContent()).toMatch(SALARY_WORDS[job.salary.source]!);
      expect(await salary.locator('.amount').textContent()).toBe(job.salary.display);
      classes.add(job.salary.source);
    }
    expect([...classes].sort()).toEqual(['disclosed', 'extracted', 'predicted']);
    // Three classes, three colours.
    const colours = await view.evaluate(() =>
      ['disclosed', 'extracted', 'predicted'].map(
        (c) => getComputedStyle(document.querySelector(`.salary-${c}`)!).backgroundColor,
      ),
    );
    expect(new Set(colours).size).toBe(3);
    await expectProvenance(view, structured.provenance);
    await expectReadable(view);
    await screenshot(page, 'job-list');

    // Tab goes from the heading through the sort controls to each job in turn.
    await view.locator('h1').focus();
    const reached: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      reached.push(
        await view.evaluate(
          () =>
            (document.activeElement as HTMLElement).dataset.sort ??
            (document.activeElement as HTMLElement).dataset.jobId ??
            '',
        ),
      );
    }
    expect(reached).toEqual(['last_seen', 'salary', jobs[0]!.job_id, jobs[1]!.job_id]);

    // Sorted by salary, highest first within each currency; jobs without a salary last.
    await view.locator('button[data-sort="salary"]').click();
    await expect.poll(() => view.locator('th[aria-sort="descending"] button[data-sort="salary"]').count()).toBe(1);
    const shownOrder = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-job-id')));
    const byId = new Map(jobs.map((job) => [job.job_id as string, job]));
    const keys = shownOrder
      .map((id) => byId.get(id!)!.salary)
      .map((s: Json | null) => (s ? [s.currency as string, (s.max ?? s.min) as number] : null));
    const firstNone = keys.findIndex((k) => k === null);
    expect(keys.slice(firstNone).every((k) => k === null)).toBe(true);
    const withSalary = keys.slice(0, firstNone) as Array<[string, number]>;
    for (let i = 1; i < withSalary.length; i++) {
      const [[c0, a0], [c1, a1]] = [withSalary[i - 1]!, withSalary[i]!];
      expect(c0 < c1 || (c0 === c1 && a0 >= a1), `${c0} ${a0} before ${c1} ${a1}`).toBe(true);
    }
    // By last_seen, with the keyboard: newest first.
    await view.locator('button[data-sort="last_seen"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => view.locator('th[aria-sort="descending"] button[data-sort="last_seen"]').count()).toBe(1);
    const seen = await view.locator('td[data-col="last_seen"]').allTextContents();
    expect(seen.map((s) => Date.parse(s))).toEqual(seen.map((s) => Date.parse(s)).sort((a, b) => b - a));

    // The next page is a real search_jobs call through the host, and the table shows its answer.
    await view.locator('button[data-page="next"]').click();
    await expect.poll(() => view.locator('.page-label').textContent()).toContain('Page 2 of');
    const pages = await callsOf(traffic, 'search_jobs');
    expect(pages.map((call) => call.args)).toEqual([args, { ...args, page: 2 }]);
    const second = pages[1]!.result.structuredContent.data.jobs as Json[];
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-job-id')))).toEqual(
      second.map((job) => job.job_id),
    );

    // Choosing a row (by keyboard) calls get_job through the host and shows that posting.
    const chosen = second[0]!;
    await view.locator(`button.open-job[data-job-id="${chosen.job_id}"]`).focus();
    await page.keyboard.press('Enter');
    await view.locator('section.detail article.job').waitFor();
    const opened = await callsOf(traffic, 'get_job');
    expect(opened.map((call) => call.args)).toEqual([{ job_id: chosen.job_id, include_predicted_salaries: true }]);
    const detail = opened[0]!.result.structuredContent.data as Json;
    expect(await view.locator('section.detail .title').textContent()).toBe(detail.title);
    expect(await view.evaluate(() => document.activeElement?.tagName)).toBe('H2');
    expect(await view.locator('section.list').isHidden()).toBe(true);
    await view.locator('button.back').click();
    expect(await view.locator('section.list').isVisible()).toBe(true);
    expect(await view.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.jobId)).toBe(
      chosen.job_id,
    );

    expectNothingLeftTheView(traffic);
    await page.close();
  }, 60_000);

  it('job: the posting in full, an unrecognised salary class as given, its evidence, and the source opened by the host', async () => {
    const { page, view, traffic, uri, structured } = await show('get_job', { job_id: 'job_web3_0009' }, 'dark');
    expect(uri).toBe('ui://service-mcp/job.html');
    const job = structured.data as Json;
    expect(job.salary.source).toBe('benchmarked');
    expect(await view.locator('h1').textContent()).toBe(job.title);
    const badge = view.locator('.pay .badge');
    expect(await badge.getAttribute('data-class')).toBe('benchmarked');
    expect(await badge.textContent()).toContain('unrecognised');
    const text = (await view.locator('article.job').textContent())!;
    for (const skill of job.skills as string[]) expect(text).toContain(skill);
    if (job.evidence_quality) expect(text).toContain(String(job.evidence_quality.notes ?? job.evidence_quality.score));
    await view.locator('button[data-url]').click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { host: { openedLinks: string[] } }).host.openedLinks))
      .toEqual([job.url]);
    await expectProvenance(view, structured.provenance);
    // The host said dark: the view is dark, and still readable.
    expect(await view.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await expectReadable(view);
    await screenshot(page, 'job');

    // Upstream text is only ever text: markup in a posting is shown, never parsed, and loads nothing.
    const hostile =
      '<img src="https://attacker.example/x.png" onerror="document.title=1"><script>document.title=2</script>';
    const tampered = {
      ...structured,
      data: { ...job, title: hostile, company: { ...job.company, name: hostile }, skills: [hostile] },
    };
    await page.evaluate(
      (result) =>
        (window as unknown as { host: { sendResult: (r: unknown) => Promise<void> } }).host.sendResult(result),
      { content: [{ type: 'text', text: 'x' }], structuredContent: tampered },
    );
    await expect.poll(() => view.locator('h1').textContent()).toBe(hostile);
    expect(await view.locator('img, main script').count()).toBe(0);
    expect(await view.evaluate(() => document.title)).toBe('Job posting');
    expectNothingLeftTheView(traffic);
    await page.close();
  }, 60_000);

  it('job: a failed call shows the error text of the tool result', async () => {
    const { page, view, traffic, text } = await show('get_job', { job_id: 'job_ai_9999' });
    expect(text).toMatch(/^not_found: /);
    expect(await view.locator('[role="alert"]').textContent()).toBe(text);
    expectNothingLeftTheView(traffic);
    await page.close();
  }, 60_000);

  it('market map: every dimension by layer with its readiness, counts, medians with their class, trends and errors; filters by layer and readiness', async () => {
    const { page, view, traffic, uri, structured } = await show('get_market_map', {});
    expect(uri).toBe('ui://service-mcp/market-map.html');
    const dimensions = structured.data.dimensions as Json[];
    const cards = view.locator('li.dimension');
    expect(await cards.count()).toBe(dimensions.length);
    for (const dimension of dimensions) {
      const card = view.locator(`section.layer[data-layer="${dimension.layer}"] li[data-dimension="${dimension.id}"]`);
      expect(await card.getAttribute('data-readiness')).toBe(dimension.readiness);
      const text = (await card.textContent())!;
      expect(text).toContain(dimension.label);
      if (dimension.job_count !== null) expect(text).toContain(`Jobs${dimension.job_count}`);
      if (dimension.error) expect(await card.locator('[data-error]').textContent()).toContain(dimension.error);
      if (dimension.note) expect(text).toContain(dimension.note);
      const median = card.locator('[data-field="median_disclosed_salary_usd"]');
      if (typeof dimension.median_disclosed_salary_usd === 'number') {
        expect(await median.locator('.badge').getAttribute('data-class')).toBe('disclosed');
        expect(await median.locator('.amount').textContent()).toBe(
          `$${dimension.median_disclosed_salary_usd.toLocaleString('en-US')}`,
        );
      } else expect(await median.count()).toBe(0);
      for (const s of dimension.suppressed as Json[]) expect(text).toContain(s.reason);
      if (typeof dimension.trend_30d_pct === 'number')
        expect(await card.locator('[data-trend]').getAttribute('data-trend')).toBe(String(dimension.trend_30d_pct));
    }
    await expectProvenance(view, structured.provenance);
    await expectReadable(view);
    await screenshot(page, 'market-map');

    await view.locator('select[data-filter="layer"]').selectOption('tooling');
    expect(await cards.count()).toBe(dimensions.filter((d) => d.layer === 'tooling').length);
    await view.locator('select[data-filter="status"]').selectOption('error');
    expect(await cards.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-dimension')))).toEqual(
      dimensions.filter((d) => d.layer === 'tooling' && d.readiness === 'error').map((d) => d.id),
    );
    await view.locator('select[data-filter="layer"]').selectOption('');
    expect(await cards.count()).toBe(dimensions.filter((d) => d.readiness === 'error').length);

    // The view follows the host's theme as it changes, and stays readable.
    await page.evaluate(() => (window as unknown as { host: { setTheme: (t: string) => void } }).host.setTheme('dark'));
    await expect.poll(() => view.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await view.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(22, 24, 29)');
    await expectReadable(view);
    expectNothingLeftTheView(traffic);
    await page.close();
  }, 60_000);

  it('interview brief: stages, topics, questions to ask and every piece of evidence with its date', async () => {
    const { page, view, traffic, uri, structured } = await show('get_company_interview_brief', {
      slug: 'northwind-neural',
    });
    expect(uri).toBe('ui://service-mcp/interview-brief.html');
    const data = structured.data as Json;
    const pkg = data.interview_package as Json;
    expect(await view.locator('h1').textContent()).toContain(data.company.name);
    // The company's id as the brief writes it (an integer, as a job's company.id is).
    const facts = view.locator('.company dl.facts');
    expect(await facts.locator('dt').allTextContents()).toContain('Company id');
    expect(await facts.locator('dd').allTextContents()).toContain(String(data.company.company_id));
    expect(await view.locator('ol.stages > li').count()).toBe(pkg.likely_interview_stages.length);
    expect(await view.locator('[data-section="questions-to-ask"] li').allTextContents()).toEqual(pkg.questions_to_ask);
    expect(await view.locator('[data-section="topics"] .chips li').allTextContents()).toEqual(pkg.topics);
    const evidence = view.locator('[data-section="evidence"] tbody tr');
    expect(await evidence.count()).toBe(data.evidence.length);
    for (const [i, item] of (data.evidence as Json[]).entries()) {
      const cells = await evidence.nth(i).locator('td').allTextContents();
      expect(cells[0]).toBe(item.claim);
      expect(cells[1]).toContain(item.url);
      expect(cells[2]).toBe(item.observed_at);
    }
    const compensation = view.locator('[data-section="compensation-evidence"] .badge');
    expect(await compensation.evaluateAll((badges) => badges.map((b) => b.getAttribute('data-class')))).toEqual([
      'disclosed',
      'extracted',
      'predicted',
    ]);
    await expectProvenance(view, structured.provenance);
    await expectReadable(view);
    await screenshot(page, 'interview-brief');
    expectNothingLeftTheView(traffic);
    await page.close();
  }, 60_000);
});
