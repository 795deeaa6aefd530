declare const __SERVICE_MCP_VERSION__: string;

/** Injected by tsup (and vitest) from package.json, so there is one source of the version. */
export const VERSION: string = __SERVICE_MCP_VERSION__;
export const PACKAGE_NAME = 'service-mcp';
export const USER_AGENT = `${PACKAGE_NAME}/${VERSION}`;
