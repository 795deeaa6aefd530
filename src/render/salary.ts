/**
 * Salaries are shown with their evidence class, always: a disclosed range, one extracted from the
 * posting text and a model's prediction are different kinds of evidence and are never merged.
 */
import { isKnownSalaryClass, SALARY_CLASSES, type PublicJobSalary } from '../contract/schemas.js';
import { datum, visible } from '../lib/text.js';

/**
 * `"$180k–$220k / year" [disclosed]`, `… [predicted: model estimate, not disclosed]`, or `none`.
 * The label comes from `salary.source` alone, compared exactly: a class with anything added (an
 * invisible character included) is another class, shown escaped and marked unrecognised.
 */
export function renderSalary(salary: PublicJobSalary | null): string {
  if (salary === null) return 'none';
  const shown = datum(salary.display, 60);
  // A display that is empty once cleaned says nothing: the numbers speak instead.
  const range = shown === '""' ? renderRange(salary) : shown;
  // The range is the posting's own currency; the USD filters compare the API's conversion, not this.
  // Its ISO code is said, unless the display already says it.
  const code = salary.currency.trim().toUpperCase();
  const said = /^[A-Z]{3}$/.test(code) && new RegExp(`\\b${code}\\b`).test(shown);
  const amount = shown !== '""' && code !== 'USD' && !said ? `${range} (${datum(salary.currency, 8)})` : range;
  const { source } = salary;
  if (source === 'predicted') return `${amount} [predicted: ${SALARY_CLASSES.predicted}]`;
  if (isKnownSalaryClass(source)) return `${amount} [${source}]`;
  return `${amount} [source ${visible(source, 40)}: unrecognised evidence class, shown as given]`;
}

function renderRange(salary: PublicJobSalary): string {
  const currency = datum(salary.currency, 8);
  if (salary.min !== null && salary.max !== null) return `${currency} ${salary.min}–${salary.max}`;
  if (salary.min !== null) return `${currency} from ${salary.min}`;
  if (salary.max !== null) return `${currency} up to ${salary.max}`;
  return `${currency} (no amount)`;
}
