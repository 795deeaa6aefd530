/**
 * Orders of a page of jobs. Salaries in different currencies are not converted (the view has no
 * exchange rates): they sort within their currency. Jobs without the value sort last either way.
 */
import { str, type Json } from '../shared/data.js';
import { salaryKey } from '../shared/salary.js';

export interface SortState {
  key: 'salary' | 'last_seen';
  direction: 'ascending' | 'descending';
}

function lastSeen(job: Json): number | undefined {
  const value = str(job.last_seen);
  const time = value === undefined ? NaN : Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

export function compareJobs({ key, direction }: SortState): (a: Json, b: Json) => number {
  const sign = direction === 'ascending' ? 1 : -1;
  return (a, b) => {
    if (key === 'last_seen') {
      const [x, y] = [lastSeen(a), lastSeen(b)];
      if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
      return sign * (x - y);
    }
    const [x, y] = [salaryKey(a.salary), salaryKey(b.salary)];
    if (!x || !y) return x === y ? 0 : !x ? 1 : -1;
    if (x.currency !== y.currency) return x.currency < y.currency ? -1 : 1;
    return sign * (x.amount - y.amount);
  };
}
