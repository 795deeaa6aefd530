declare const __SERVICE_MCP_VERSION__: string;
declare const __SERVICE_MCP_ICON__: string;

/** Injected by tsup (and vitest) from package.json, so there is one source of the version. */
export const VERSION: string = __SERVICE_MCP_VERSION__;
export const PACKAGE_NAME = 'service-mcp';
export const USER_AGENT = `${PACKAGE_NAME}/${VERSION}`;

/** The package's icon (assets/icon.svg), as a data URI any client can show without a request. */
export const ICON_DATA_URI: string = __SERVICE_MCP_ICON__;
