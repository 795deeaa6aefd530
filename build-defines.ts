/**
 * Constants injected into the code at build time (tsup) and under test (vitest), from one
 * source each: the version from package.json, the icon from assets/icon.svg.
 */
import { readFileSync } from 'node:fs';

export function buildDefines(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
  const icon = readFileSync(new URL('./assets/icon.svg', import.meta.url), 'utf8').trim();
  // A data URI, encoded here rather than at run time: the views' browser bundles have no Buffer.
  const iconUri = `data:image/svg+xml;base64,${Buffer.from(icon).toString('base64')}`;
  return { __SERVICE_MCP_VERSION__: JSON.stringify(pkg.version), __SERVICE_MCP_ICON__: JSON.stringify(iconUri) };
}
