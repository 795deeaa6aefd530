/**
 * One Markdown table of the results. Each row's ratio is computed within each run (subjects of a
 * run share its machine state), then reported as the median over the runs with their spread
 * (lowest–highest); its targets are judged on that median. Cells are the median over the runs of
 * each subject's median / p90.
 */
import { quantile, ms, ratio } from './stats.mjs';

export const mid = (values) => quantile(values.filter(Number.isFinite), 0.5);
export const mark = (ok) => (ok === undefined ? '' : ok ? 'met' : '**missed**');

/** A target: its text and its test of the row's median ratio. `by` names the issue that set it. */
export const atMost = (limit, by = '') => [`≤ ${limit}x${by}`, (v) => v <= limit];
export const atLeast = (limit, by = '') => [`≥ ${limit}x${by}`, (v) => v >= limit];
/** The bound issue 45 sets; on the micro rows, today's spread, which none may leave for the worse. */
export const ISSUE = ' (#45)';

/** `columns` name the subjects after the metric; a row is skipped when no run measured it. */
export function tableOf(runs, columns) {
  const lines = [];
  /** The cell of a summary picked from each run: median / p90, each the median over the runs. */
  const cell = (pick, unit = ms) => {
    const picked = runs.map(pick).filter(Boolean);
    return picked.length ? `${unit(mid(picked.map((s) => s.median)))} / ${unit(mid(picked.map((s) => s.p90)))}` : '';
  };
  const rate = (pick) => {
    const picked = runs.map(pick).filter(Boolean);
    return picked.length ? `${Math.round(mid(picked.map((s) => s.median)))}/s` : '';
  };
  /** `value(run)` is the row's ratio in one run; `targets` [text, test] pairs, when issues set them. */
  const row = (metric, cells, value, against, targets = []) => {
    const values = runs.map(value).filter(Number.isFinite);
    if (values.length === 0) return;
    const median = mid(values);
    const spread = values.length > 1 ? ` (${ratio(Math.min(...values))}–${ratio(Math.max(...values))})` : '';
    lines.push(
      `| ${metric} | ${cells.join(' | ')} | ${ratio(median)} ${against}${spread} | ${targets.map((t) => t[0]).join('; ')} | ${targets.map((t) => mark(t[1](median))).join('; ')} |`,
    );
  };
  /** A row written out in full (cells after the metric, up to the mark). */
  const raw = (cells) => lines.push(`| ${cells.join(' | ')} |`);
  const render = () =>
    lines.length === 0
      ? []
      : [
          `| metric | ${columns.join(' | ')} | ratio | target | |`,
          `|${'---|'.repeat(columns.length + 4)}`,
          ...lines,
          '',
        ];
  return { cell, rate, row, raw, render };
}
