/**
 * The market map view (get_market_map): each layer a row of its dimensions, coloured and labelled
 * by readiness, with job and company counts, median salaries with their evidence class, trends,
 * coverage, and what failed or was suppressed; filterable by layer and readiness in place.
 */
import { records, str, strings, type Json } from '../shared/data.js';
import { h, replaceChildren } from '../shared/dom.js';
import { provenanceFooter } from '../shared/provenance-footer.js';
import { showStatus, startView } from '../shared/view.js';
import { otherMembers, valueNode } from '../shared/values.js';
import { dimensionFacts, isLaidOut, readinessBadge } from './dimension.js';

const ALL = '';

function select(name: string, values: readonly string[], allText: string, onChange: () => void): HTMLSelectElement {
  const control = h(
    'select',
    { name, 'data-filter': name },
    h('option', { value: ALL }, allText),
    ...values.map((value) => h('option', { value }, value)),
  );
  control.addEventListener('change', onChange);
  return control;
}

const unique = (values: Iterable<string | undefined>) => [
  ...new Set([...values].filter((value): value is string => value !== undefined)),
];

function summary(data: Json, dimensions: Json[]): HTMLElement {
  const counts = new Map<string, number>();
  for (const d of dimensions)
    counts.set(str(d.readiness) ?? 'unstated', (counts.get(str(d.readiness) ?? 'unstated') ?? 0) + 1);
  const generation = data.generation;
  return h(
    'section',
    { class: 'summary' },
    h(
      'p',
      {},
      `${dimensions.length} dimensions: `,
      ...[...counts].flatMap(([readiness, count], i) => [i > 0 ? ', ' : '', `${count} `, readinessBadge(readiness)]),
    ),
    generation === undefined
      ? null
      : h('details', {}, h('summary', {}, 'How this map was generated'), valueNode(generation)),
  );
}

function card(dimension: Json): HTMLElement {
  const readiness = str(dimension.readiness) ?? 'unstated';
  return h(
    'li',
    { class: `dimension readiness-${readiness}`, 'data-dimension': str(dimension.id), 'data-readiness': readiness },
    h(
      'div',
      { class: 'head' },
      h('h3', {}, str(dimension.label) ?? str(dimension.name) ?? str(dimension.id) ?? 'Unnamed dimension'),
      readinessBadge(readiness),
    ),
    dimensionFacts(dimension, otherMembers(dimension, Object.keys(dimension).filter(isLaidOut), 'Other fields')),
  );
}

startView('market-map', (result, { root }) => {
  if (!result.ok) return showStatus(root, result.message, 'error');
  const { data, provenance, notices } = result.value;
  const dimensions = records(data.dimensions);
  const layers = unique([...strings(data.layers), ...dimensions.map((d) => str(d.layer))]);
  const statuses = unique([
    ...strings(data.statuses).filter((s) => s !== 'all'),
    ...dimensions.map((d) => str(d.readiness)),
  ]);
  const grid = h('div', { class: 'layers' });
  const shown = h('p', { class: 'hint', role: 'status' });
  const draw = () => {
    const [layer, status] = [layerSelect.value, statusSelect.value];
    const visible = dimensions.filter(
      (d) => (layer === ALL || d.layer === layer) && (status === ALL || d.readiness === status),
    );
    shown.textContent = `Showing ${visible.length} of ${dimensions.length} dimensions.`;
    replaceChildren(
      grid,
      ...unique([...layers, ...visible.map((d) => str(d.layer) ?? 'no layer stated')])
        .map((name) => [name, visible.filter((d) => (str(d.layer) ?? 'no layer stated') === name)] as const)
        .filter(([, members]) => members.length > 0)
        .map(([name, members]) =>
          h(
            'section',
            { class: 'layer', 'data-layer': name },
            h('h2', {}, name),
            h('ul', { class: 'dimensions' }, ...members.map(card)),
          ),
        ),
    );
  };
  const layerSelect = select('layer', layers, 'All layers', draw);
  const statusSelect = select('status', statuses, 'All readiness states', draw);
  replaceChildren(
    root,
    h('h1', {}, 'Market map'),
    summary(data, dimensions),
    h(
      'div',
      { class: 'filters' },
      h('label', {}, 'Layer ', layerSelect),
      h('label', {}, 'Readiness ', statusSelect),
      shown,
    ),
    grid,
    otherMembers(data, ['dimensions', 'layers', 'statuses', 'readiness', 'generation']),
    provenanceFooter(provenance, notices),
  );
  draw();
});
