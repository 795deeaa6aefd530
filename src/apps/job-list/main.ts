/**
 * The job list view (search_jobs, list_jobs): a table of the page's jobs, sortable by salary and
 * last_seen; paging and opening a job are real tool calls made through the host, so the server
 * answers them exactly as it answers the model.
 */
import type { App } from '@modelcontextprotocol/ext-apps';
import type { ToolName } from '../../contract/tool-names.js';
import { isRecord, num, readResult, records, str, type Json, type Structured } from '../shared/data.js';
import { h, replaceChildren } from '../shared/dom.js';
import { jobDetail, location } from '../shared/job.js';
import { provenanceFooter } from '../shared/provenance-footer.js';
import { salaryCell } from '../shared/salary.js';
import { showStatus, startView } from '../shared/view.js';
import { compareJobs, type SortState } from './sort.js';

/** search_jobs takes every list_jobs argument, so it is the safe guess when the host names no tool. */
const LIST_TOOLS: readonly string[] = ['search_jobs', 'list_jobs'] satisfies ToolName[];

interface State {
  result: Structured;
  sort: SortState | undefined;
  /** The arguments of the page shown: the call's own, with `page` as last asked. */
  args: Json;
}

function toolName(app: App): string {
  const name = app.getHostContext()?.toolInfo?.tool.name;
  return name && LIST_TOOLS.includes(name) ? name : 'search_jobs';
}

const predictionsHidden = (args: Json) => args.include_predicted_salaries !== true;

/** Redraws the list, then puts the focus back on the control that asked (it was redrawn too). */
type Redraw = (focus?: string) => void;

function sortButton(state: State, key: SortState['key'], text: string, redraw: Redraw): HTMLElement {
  const active = state.sort?.key === key ? state.sort.direction : undefined;
  const button = h(
    'button',
    { type: 'button', class: 'sort', 'data-sort': key },
    text,
    h('span', { 'aria-hidden': 'true' }, active === 'ascending' ? ' ▲' : active === 'descending' ? ' ▼' : ' ↕'),
  );
  button.addEventListener('click', () => {
    state.sort = { key, direction: active === 'descending' ? 'ascending' : 'descending' };
    redraw(`button[data-sort="${key}"]`);
  });
  return h('th', { scope: 'col', 'aria-sort': active ?? 'none' }, button);
}

function row(job: Json, args: Json): HTMLElement {
  const id = str(job.job_id) ?? '';
  const company = isRecord(job.company) ? str(job.company.name) : undefined;
  return h(
    'tr',
    { 'data-job-id': id },
    h(
      'td',
      {},
      h('button', { type: 'button', class: 'link open-job', 'data-job-id': id }, str(job.title) ?? 'Untitled posting'),
      h('div', { class: 'hint' }, id),
    ),
    h('td', {}, company ?? 'not stated'),
    h('td', {}, location(job), h('div', { class: 'hint' }, str(job.remote_status) ?? 'remote status not stated')),
    h('td', {}, str(job.freshness) ?? 'not stated'),
    h('td', { 'data-col': 'last_seen' }, str(job.last_seen) ?? 'not stated'),
    h('td', { 'data-col': 'salary' }, salaryCell(job.salary, predictionsHidden(args))),
  );
}

function pager(state: State, go: (page: number, from: string) => void): HTMLElement | null {
  const p = isRecord(state.result.data.pagination) ? state.result.data.pagination : undefined;
  const page = num(p?.page);
  if (!p || page === undefined) return null;
  const button = (which: string, to: number, enabled: unknown, text: string) => {
    const element = h('button', { type: 'button', 'data-page': which, disabled: enabled !== true }, text);
    element.addEventListener('click', () => go(to, which));
    return element;
  };
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    button('previous', page - 1, p.has_prev, '← Previous page'),
    h('span', { class: 'page-label' }, `Page ${page} of ${num(p.total_pages) ?? '?'} · ${num(p.total) ?? '?'} jobs`),
    button('next', page + 1, p.has_next, 'Next page →'),
  );
}

function listView(
  state: State,
  redraw: Redraw,
  go: (page: number, from: string) => void,
  open: (jobId: string, from: HTMLElement) => void,
): HTMLElement[] {
  const jobs = records(state.result.data.jobs);
  const sorted = state.sort ? [...jobs].sort(compareJobs(state.sort)) : jobs;
  const currencies = new Set(
    jobs.map((job) => (isRecord(job.salary) ? str(job.salary.currency) : undefined)).filter(Boolean),
  );
  const table = h(
    'table',
    { class: 'jobs' },
    h(
      'caption',
      {},
      jobs.length === 0 ? 'No jobs on this page.' : 'Jobs on this page. Choose a title to open the posting.',
    ),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Title', 'Company', 'Location and remote', 'Freshness'].map((text) => h('th', { scope: 'col' }, text)),
        sortButton(state, 'last_seen', 'Last seen', redraw),
        sortButton(state, 'salary', 'Salary (evidence class)', redraw),
      ),
    ),
    h('tbody', {}, ...sorted.map((job) => row(job, state.args))),
  );
  // A click anywhere on a row chooses it; the title's button is the same choice by keyboard.
  table.addEventListener('click', (event) => {
    const row = (event.target as Element).closest<HTMLElement>('tbody tr[data-job-id]');
    if (row?.dataset.jobId) open(row.dataset.jobId, row.querySelector<HTMLElement>('button.open-job') ?? row);
  });
  return [
    h('h1', { tabindex: -1 }, 'Job results'),
    table,
    state.sort?.key === 'salary' && currencies.size > 1
      ? h(
          'p',
          { class: 'hint' },
          'Amounts in different currencies are not converted: they are sorted within each currency.',
        )
      : null,
    h('p', { class: 'hint' }, 'Sorting orders this page only. Postings are evidence of demand, not of hires.'),
    pager(state, go),
    provenanceFooter(state.result.provenance, state.result.notices),
  ].filter((node): node is HTMLElement => node !== null);
}

startView('job-list', (first, context) => {
  const { app, root } = context;
  if (!first.ok) return showStatus(root, first.message, 'error');
  const state: State = { result: first.value, sort: undefined, args: { ...context.args } };
  const list = h('section', { class: 'list' });
  const detail = h('section', { class: 'detail', hidden: true, 'aria-label': 'Job posting' });
  const busy = h('p', { class: 'status', role: 'status' });
  const failed = h('p', { class: 'error', role: 'alert', hidden: true });
  replaceChildren(root, busy, failed, list, detail);
  const fail = (message: string) => {
    failed.textContent = message;
    failed.hidden = false;
  };

  const redraw: Redraw = (focus) => {
    replaceChildren(list, ...listView(state, redraw, go, open));
    if (focus)
      (list.querySelector<HTMLElement>(`${focus}:not([disabled])`) ?? list.querySelector<HTMLElement>('h1'))?.focus();
  };
  const call = async (name: string, args: Json, what: string) => {
    failed.hidden = true;
    busy.textContent = `Loading ${what}…`;
    root.setAttribute('aria-busy', 'true');
    try {
      return readResult(await app.callServerTool({ name, arguments: args }));
    } catch (error) {
      return { ok: false as const, message: error instanceof Error ? error.message : String(error) };
    } finally {
      busy.textContent = '';
      root.removeAttribute('aria-busy');
    }
  };
  async function go(page: number, from: string) {
    // The page size shown, even when the host did not pass the call's arguments on.
    const size = isRecord(state.result.data.pagination) ? num(state.result.data.pagination.per_page) : undefined;
    const args = { ...(size === undefined ? {} : { per_page: size }), ...state.args, page };
    const next = await call(toolName(app), args, `page ${page}`);
    if (!next.ok) return fail(next.message);
    Object.assign(state, { result: next.value, args });
    redraw(`button[data-page="${from}"]`);
  }
  async function open(jobId: string, from: HTMLElement) {
    const args: Json = {
      job_id: jobId,
      ...(predictionsHidden(state.args) ? {} : { include_predicted_salaries: true }),
    };
    const job = await call('get_job', args, 'the posting');
    if (!job.ok) return fail(job.message);
    const back = h('button', { type: 'button', class: 'back' }, '← Back to the results');
    back.addEventListener('click', () => {
      detail.hidden = true;
      list.hidden = false;
      const opener = list.querySelector<HTMLElement>(`button.open-job[data-job-id="${CSS.escape(jobId)}"]`);
      (opener ?? from).focus();
    });
    replaceChildren(
      detail,
      back,
      jobDetail(app, job.value.data, predictionsHidden(args), 'h2'),
      provenanceFooter(job.value.provenance, job.value.notices),
    );
    list.hidden = true;
    detail.hidden = false;
    detail.querySelector<HTMLElement>('.title')?.focus();
  }
  redraw();
});
