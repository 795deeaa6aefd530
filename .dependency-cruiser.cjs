/**
 * The layers of src/, lowest first: a folder may import its own files and any folder before it
 * in this list, never one after it (docs/architecture.md draws them from the code). Type-only
 * imports count: a type names what a layer knows. `npm run check` runs this (`npm run deps`).
 */
const LAYERS = [
  'lib',
  'contract',
  'obs',
  'config',
  'api',
  'hosted',
  'telemetry',
  'render',
  'tools',
  'offline',
  'mcp',
  'transports',
  'app',
];

const folder = (names) => `^src/(${names.join('|')})/`;

/** One rule a layer: nothing above it. */
const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `${layer}-imports-only-below`,
  comment: `src/${layer}/ may import ${LAYERS.slice(0, i).join(', ') || 'nothing of ours'} and itself, nothing above it`,
  severity: 'error',
  from: { path: folder([layer]) },
  to: { path: folder(LAYERS.slice(i + 1)) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No two files import each other, directly or through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: 'offline-is-an-api',
      comment: 'The offline API is an API, not an MCP server: it knows lib/ and contract/ only.',
      severity: 'error',
      from: { path: '^src/offline/' },
      to: { path: '^src/', pathNot: ['^src/(offline|lib|contract)/'] },
    },
    {
      name: 'offline-is-composed-by-app',
      comment: 'Only app/ (composition) reaches the offline engine; tools and transports see an API client.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/(offline|app)/'] },
      to: { path: '^src/offline/' },
    },
    {
      name: 'telemetry-reads-hooks',
      comment: 'Telemetry reports through the structural types obs/ declares, not the API client or tools.',
      severity: 'error',
      from: { path: '^src/telemetry/' },
      to: { path: '^src/(api|hosted)/' },
    },
    {
      name: 'apps-are-browser-views',
      comment: 'The MCP Apps views run in a browser: lib/ and contract/ (types and pure code) only.',
      severity: 'error',
      from: { path: '^src/apps/' },
      to: { path: '^src/', pathNot: ['^src/(apps|lib|contract)/'] },
    },
    {
      name: 'nothing-imports-apps',
      comment: 'The views are built apart (scripts/build-views.ts); the server names them through contract/views.ts.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/apps/'] },
      to: { path: '^src/apps/' },
    },
    {
      name: 'no-loose-files',
      comment: 'Every file of src/ lives in a layer folder.',
      severity: 'error',
      from: { path: '^src/[^/]+$' },
      to: {},
    },
  ],
  options: {
    // TypeScript 7 offers no compiler API for dependency-cruiser's tsc parser; swc reads the
    // sources as written, type-only imports included.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
