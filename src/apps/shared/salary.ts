/**
 * A salary is never shown without its evidence class: a badge whose colour and words say which, as
 * the text results word it (render/salary.ts). A prediction says it is a model estimate, and a
 * class this view does not know is shown as given and called unrecognised.
 */
import { isKnownSalaryClass, SALARY_CLASSES } from '../../contract/schemas.js';
import { num, str, type Json } from './data.js';
import { h } from './dom.js';

/** The badge for an evidence class as the API names it. */
export function classBadge(source: string): HTMLElement {
  if (isKnownSalaryClass(source)) {
    const label = source === 'predicted' ? 'predicted · model estimate' : source;
    return h('span', { class: `badge salary-${source}`, title: SALARY_CLASSES[source], 'data-class': source }, label);
  }
  return h(
    'span',
    { class: 'badge salary-unknown', title: 'unrecognised evidence class, shown as given', 'data-class': source },
    `"${source}" · unrecognised class`,
  );
}

function range(salary: Json): string {
  const currency = str(salary.currency) ?? '';
  const [min, max] = [num(salary.min), num(salary.max)];
  if (min !== undefined && max !== undefined) return `${currency} ${min}–${max}`;
  if (min !== undefined) return `${currency} from ${min}`;
  if (max !== undefined) return `${currency} up to ${max}`;
  return `${currency} (no amount)`;
}

/** A job's salary: amount and class badge, or a plain "none" with why one may be missing. */
export function salaryCell(salary: unknown, predictionsHidden: boolean): HTMLElement {
  if (salary === null || typeof salary !== 'object') {
    return h(
      'span',
      { class: 'salary none' },
      'none',
      predictionsHidden
        ? h('span', { class: 'hint' }, ' (no disclosed or extracted range; model estimates hidden)')
        : null,
    );
  }
  const record = salary as Json;
  const source = str(record.source) ?? 'not stated';
  return h(
    'span',
    { class: 'salary' },
    h('span', { class: 'amount' }, str(record.display) ?? range(record)),
    ' ',
    classBadge(source),
  );
}

/** Sort key of a salary: its currency, then its upper bound (missing salaries sort last). */
export function salaryKey(salary: unknown): { currency: string; amount: number } | undefined {
  if (salary === null || typeof salary !== 'object') return undefined;
  const record = salary as Json;
  const amount = num(record.max) ?? num(record.min);
  return amount === undefined ? undefined : { currency: str(record.currency) ?? '', amount };
}
