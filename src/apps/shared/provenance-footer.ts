/**
 * Where the numbers on screen come from, shown under every view as the text results end with it:
 * the API's source and timestamps (saying when generated_at states no timezone), whether the data
 * is fictional and how the API was reached, when it was retrieved and whether from the cache.
 */
import { describeAge } from '../../lib/age-words.js';
import type { Provenance } from './data.js';
import { facts, h } from './dom.js';

/** The generation time, its age at retrieval, and the flags a reader must not miss: no timezone, stale. */
function generated(p: Provenance): Node | string {
  if (p.generated_at === null) return 'not stated';
  const flag = (name: string, text: string) => [' ', h('span', { class: 'badge warn', 'data-flag': name }, text)];
  return h(
    'span',
    {},
    p.generated_at,
    ` (${describeAge(p.age_s ?? null)})`,
    ...(p.generated_at_timezone === 'not_stated'
      ? flag('no-timezone', 'no timezone stated (legacy snapshot, read as UTC)')
      : []),
    ...(p.stale ? flag('stale', `stale: older than its ${p.cadence ?? 'stated'} cadence`) : []),
  );
}

/** Whether the data is fictional, by the API's word, in the text results' words. */
function fiction(p: Provenance): HTMLElement {
  return p.fictional
    ? h('span', { class: 'badge offline', 'data-fictional': 'true' }, "FICTIONAL sample data, by the API's own word")
    : h('span', { class: 'badge live', 'data-fictional': 'false' }, 'not fictional (the API does not say so)');
}

const REACHED: Record<Provenance['reached'], string> = {
  embedded: 'embedded (the offline API inside service-mcp)',
  http: 'http (over HTTP from the base URL)',
};

function cache(p: Provenance): string {
  if (p.last_answer)
    return `the last answer, ${p.last_answer.age_s} s old: the API did not answer (${p.last_answer.reason})`;
  if (p.cache?.hit) return `from the response cache, ${p.cache.age_s} s old`;
  return 'fetched for this call (not from the cache)';
}

export function provenanceFooter(p: Provenance, notices: readonly string[]): HTMLElement {
  return h(
    'footer',
    { class: 'provenance', 'aria-label': 'Provenance' },
    h('h2', {}, 'Provenance'),
    facts([
      ['Data', fiction(p)],
      ['Reached', h('span', { 'data-reached': p.reached }, REACHED[p.reached])],
      ['Source', p.source ?? 'not stated'],
      ['Generated at', generated(p)],
      ['Computed at', p.computed_at ?? 'not stated'],
      ['Retrieved', p.retrieved_at],
      ['Cache', cache(p)],
    ]),
    notices.length > 0 ? h('ul', { class: 'notices' }, ...notices.map((notice) => h('li', {}, notice))) : null,
  );
}
