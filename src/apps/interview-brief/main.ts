/**
 * The interview brief view (get_company_interview_brief): the company, stages, topics, questions to
 * ask, preparation tips and dated evidence, under the brief's own freshness. The package is
 * free-form upstream data, so members this view does not lay out are listed as they came.
 */
import type { App } from '@modelcontextprotocol/ext-apps';
import { isRecord, num, records, str, strings, type Json } from '../shared/data.js';
import { facts, h, replaceChildren } from '../shared/dom.js';
import { hostLink } from '../shared/links.js';
import { provenanceFooter } from '../shared/provenance-footer.js';
import { classBadge } from '../shared/salary.js';
import { otherMembers, valueNode } from '../shared/values.js';
import { showStatus, startView } from '../shared/view.js';

const PACKAGE_LAID_OUT = [
  'summary',
  'likely_interview_stages',
  'topics',
  'role_focus',
  'questions_to_ask',
  'preparation_tips',
  'hiring_signals',
  'compensation',
];
/** The company's facts, each label with its member ('name' heads the view). */
const COMPANY_FACTS = {
  Type: 'type',
  Domain: 'domain_id',
  Headquarters: 'headquarters',
  Stage: 'stage',
  Headcount: 'headcount',
  Website: 'website',
  'Company id': 'company_id',
  Slug: 'slug',
};

const section = (title: string, ...body: Array<Node | string | null>) =>
  h('section', { 'data-section': title.toLowerCase().replace(/\W+/g, '-') }, h('h2', {}, title), ...body);

const list = (items: string[]) =>
  items.length === 0
    ? h('p', { class: 'hint' }, 'None in this brief.')
    : h('ul', {}, ...items.map((item) => h('li', {}, item)));

const chips = (items: string[], label: string) =>
  items.length === 0
    ? null
    : h('ul', { class: 'chips', 'aria-label': label }, ...items.map((item) => h('li', {}, item)));

function company(app: App, record: Json): HTMLElement {
  const shown = Object.entries(COMPANY_FACTS).map(([label, key]) => {
    // A number too: the company id is the integer a job's company.id is.
    const value = str(record[key]) ?? num(record[key])?.toString();
    return [label, key === 'website' && value ? hostLink(app, value, 'Open the website') : value] as const;
  });
  const laidOut = ['name', ...Object.values(COMPANY_FACTS)];
  return h('div', { class: 'company' }, facts(shown), otherMembers(record, laidOut));
}

function stages(value: unknown): HTMLElement {
  const items = records(value);
  if (items.length === 0) return list([]);
  return h(
    'ol',
    { class: 'stages' },
    ...items.map((stage) => {
      const minutes = num(stage.duration_minutes);
      return h(
        'li',
        {},
        h('strong', {}, str(stage.stage) ?? 'Stage'),
        minutes === undefined ? null : ` · ${minutes} min`,
        str(stage.focus) ? h('div', {}, str(stage.focus)) : null,
        otherMembers(stage, ['stage', 'duration_minutes', 'focus'], 'More'),
      );
    }),
  );
}

/** A table whose last column is a date. */
function table(head: string[], rows: Array<Array<Node | string>>, caption: string): HTMLElement {
  return h(
    'table',
    { class: 'dated' },
    h('caption', { class: 'sr-only' }, caption),
    h('thead', {}, h('tr', {}, ...head.map((cell) => h('th', { scope: 'col' }, cell)))),
    h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))))),
  );
}

function signals(value: unknown): HTMLElement {
  const items = records(value);
  if (items.length === 0) return list([]);
  return table(
    ['Signal', 'Strength', 'Observed'],
    items.map((s) => [
      str(s.signal) ?? 'not stated',
      str(s.strength) ?? 'not stated',
      str(s.observed_at) ?? 'date not stated',
    ]),
    'Hiring signals',
  );
}

/** Counts of salary ranges by evidence class: each class keeps its own badge, none is summed. */
function compensation(value: unknown): HTMLElement | null {
  if (!isRecord(value)) return null;
  const counts = Object.keys(value).flatMap((key) => {
    const match = /^([a-z]+)_ranges$/.exec(key);
    const count = num(value[key]);
    return match && count !== undefined ? [h('li', {}, `${count} `, classBadge(match[1]!), ' ranges')] : [];
  });
  return section(
    'Compensation evidence',
    h('ul', { class: 'counts' }, ...counts),
    str(value.note) ? h('p', { class: 'hint' }, str(value.note)) : null,
    otherMembers(
      value,
      Object.keys(value).filter((key) => key.endsWith('_ranges') || key === 'note'),
    ),
  );
}

function evidence(app: App, value: unknown): HTMLElement {
  const items = records(value);
  if (items.length === 0) return h('p', { class: 'hint' }, 'This brief cites no evidence.');
  return table(
    ['Claim', 'Source', 'Observed'],
    items.map((e) => {
      const url = str(e.url);
      return [
        str(e.claim) ?? 'not stated',
        h(
          'span',
          {},
          str(e.source_type) ?? 'source type not stated',
          url ? h('div', {}, hostLink(app, url, 'Open')) : null,
        ),
        str(e.observed_at) ?? 'date not stated',
      ];
    }),
    'Evidence, with the date each was observed',
  );
}

function freshness(value: unknown): HTMLElement | null {
  if (!isRecord(value)) return null;
  const window = isRecord(value.observation_window)
    ? [str(value.observation_window.from), str(value.observation_window.to)].filter(Boolean).join(' to ')
    : undefined;
  return facts([
    ['Brief status', str(value.status)],
    ['Brief generated at', str(value.generated_at)],
    ['Observation window', window],
    ['Evidence items', num(value.evidence_count)?.toString()],
  ]);
}

startView('interview-brief', (result, { app, root }) => {
  if (!result.ok) return showStatus(root, result.message, 'error');
  const { data, provenance, notices } = result.value;
  const record = isRecord(data.company) ? data.company : {};
  const pkg = isRecord(data.interview_package) ? data.interview_package : {};
  replaceChildren(
    root,
    h('h1', {}, `Interview brief: ${str(record.name) ?? 'company not named'}`),
    company(app, record),
    freshness(data.freshness),
    str(pkg.summary) ? h('p', { class: 'summary' }, str(pkg.summary)) : null,
    section('Likely interview stages', stages(pkg.likely_interview_stages)),
    section(
      'Topics',
      chips(strings(pkg.topics), 'Topics') ?? list([]),
      strings(pkg.role_focus).length > 0 ? h('p', {}, 'Roles in focus: ', strings(pkg.role_focus).join(', ')) : null,
    ),
    section('Questions to ask', list(strings(pkg.questions_to_ask))),
    section('Preparation tips', list(strings(pkg.preparation_tips))),
    section('Hiring signals', signals(pkg.hiring_signals)),
    compensation(pkg.compensation),
    otherMembers(pkg, PACKAGE_LAID_OUT, 'More from the interview package'),
    section('Evidence', evidence(app, data.evidence)),
    records(data.suppressed).length > 0 ? section('Suppressed', valueNode(data.suppressed)) : null,
    otherMembers(data, ['company', 'interview_package', 'evidence', 'freshness', 'suppressed']),
    provenanceFooter(provenance, notices),
  );
});
