/**
 * The network rows (network.mjs): each phase's time and upstream requests, for service-mcp with its
 * defaults, with the hosted endpoint hanging, and with --no-bridge, beside the floor. Every start of
 * every run is one sample: cells are the median (lowest–highest), ratios are taken within each
 * round (the subject against the floor started just before or after it) and summarised the same way.
 */
import { PHASES } from './network.mjs';
import { mark, mid } from './report-table.mjs';

const SAID = {
  list: 'spawn → tools/list (2025 client: initialize, then tools/list)',
  first: 'first call: get_job',
  second: 'second call, a different request: search_jobs, 20 jobs',
  repeat: 'the first call repeated: get_job',
};

const range = (values, unit) => {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? unit(lo) : `${unit(mid(values))} (${unit(lo)}–${unit(hi)})`;
};
const ms0 = (v) => v.toFixed(0);
const x2 = (v) => `${v.toFixed(2)}x`;
/** Requests per phase: the count, or its median and range when the starts differ. */
const count = (values) => range(values, String);

export function networkTable(runs) {
  const rounds = runs.flatMap((x) => x.network?.rounds ?? []);
  if (rounds.length === 0) return [];
  const { roundTripMs } = runs.find((x) => x.network).network;
  const lines = [
    `| metric (${roundTripMs} ms added to every upstream request; ${rounds.length} starts of each) | service-mcp (ms) | upstream requests | v2 floor (ms) | floor requests | ratio | target | |`,
    '|---|---|---|---|---|---|---|---|',
  ];
  const phaseRow = (label, subject, phase, targets = []) => {
    const ours = rounds.map((r) => r[subject].ms[phase]);
    const floor = rounds.map((r) => r.floor.ms[phase]);
    const ratios = rounds.map((r) => r[subject].ms[phase] / r.floor.ms[phase]);
    const checks = targets.map(([, test]) => mark(test(mid(ratios), rounds, subject, phase)));
    lines.push(
      `| ${label} | ${range(ours, ms0)} | ${count(rounds.map((r) => r[subject].requests[phase].length))} | ${range(floor, ms0)} | ${count(rounds.map((r) => r.floor.requests[phase].length))} | ${range(ratios, x2)} floor | ${targets.map((t) => t[0]).join('; ')} | ${checks.join('; ')} |`,
    );
  };
  const atMost = (limit) => [`≤ ${limit}x (#45)`, (median) => median <= limit];
  // The hanging start against the floor's start in the same round: at most 400 ms more.
  const plus400 = [
    "≤ the floor's + 400 ms (#45)",
    (_, all) => mid(all.map((r) => r.serviceHanging.ms.list - r.floor.ms.list)) <= 400,
  ];
  for (const phase of PHASES) {
    phaseRow(
      `the defaults: ${SAID[phase]}`,
      'service',
      phase,
      phase === 'list' || phase === 'first' ? [atMost(1.2)] : [],
    );
    if (phase === 'list')
      phaseRow('the defaults, the hosted MCP endpoint hanging: spawn → tools/list', 'serviceHanging', 'list', [
        plus400,
      ]);
  }
  for (const phase of PHASES) phaseRow(`--no-bridge: ${SAID[phase]}`, 'serviceNoBridge', phase);

  const last = rounds.at(-1);
  const listed = (requests) => {
    const counts = new Map();
    for (const r of requests) counts.set(r, (counts.get(r) ?? 0) + 1);
    return [...counts].map(([r, n]) => `\`${r}\`${n > 1 ? ` ×${n}` : ''}`).join(', ') || 'none';
  };
  lines.push(
    '',
    `Upstream requests of the last start, by phase: the defaults ${PHASES.map((p) => `${p}: ${listed(last.service.requests[p])}`).join('; ')}. Hanging, before tools/list: ${listed(last.serviceHanging.requests.list)} (tools/list answered with ${last.serviceHanging.tools} tools, against ${last.service.tools} with the hosted list read). The floor: ${PHASES.map((p) => `${p}: ${listed(last.floor.requests[p])}`).join('; ')}.`,
    '',
  );
  return lines;
}
