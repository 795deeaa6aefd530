/**
 * The offline deployment's hosted tool list, read once at build time: the list is fixed for a build,
 * and reading it at run time meant loading the deployment and the SDK's client (a second copy of the
 * protocol's schemas) and a round trip through both before the first tools/list could name the
 * bridged tools. The deployment is evaluated at build (build-eval.ts), and its surface listed by the
 * SDK's client, in-process, as the bridge lists it; tsup injects the result as
 * __SERVICE_MCP_OFFLINE_LIST__ (test/e2e/tool-catalog.test.ts holds it equal to a read at run time).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { evaluateAtBuild } from './build-eval.js';

/** What the bundle exports: the modules it was built from, as typed there. */
type Bundled = typeof import('../src/app/offline-deployment.js') &
  typeof import('../src/config/config.js') &
  typeof import('../src/offline/fetch.js') &
  typeof import('../src/contract/tool-names.js') &
  typeof import('../src/obs/log.js');

export async function buildOfflineList(define: Record<string, string>): Promise<unknown[]> {
  const bundled = await evaluateAtBuild<Bundled>(
    'offline-list',
    [
      "export { createOfflineDeployment } from './src/app/offline-deployment.ts';",
      "export { resolveConfig } from './src/config/config.ts';",
      "export { OFFLINE_BASE_URL } from './src/offline/fetch.ts';",
      "export { TOOL_NAMES } from './src/contract/tool-names.ts';",
      "export { silentLogger } from './src/obs/log.ts';",
    ].join('\n'),
    define,
  );
  const { createOfflineDeployment, resolveConfig, OFFLINE_BASE_URL, TOOL_NAMES, silentLogger } = bundled;
  const engine = await createOfflineDeployment(resolveConfig({ offline: true }, {}), silentLogger);
  const client = new Client({ name: 'service-mcp-build', version: '0.0.0' });
  const url = new URL(`${OFFLINE_BASE_URL}/api/public/v1/mcp?surface=market`);
  await client.connect(
    new StreamableHTTPClientTransport(url, { fetch: (target, init) => engine.handle(new Request(target, init)) }),
  );
  const { tools } = await client.listTools();
  await client.close();
  // Ours are skipped by name (src/hosted/admit.ts): their definitions would only weigh on the bundle.
  const ours: readonly string[] = TOOL_NAMES;
  return tools.map((tool) => (ours.includes(tool.name) ? { name: tool.name } : tool));
}
