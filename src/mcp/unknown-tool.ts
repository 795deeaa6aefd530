/**
 * An unknown tool's protocol error names the tools that exist. The SDK answers a tools/call for an
 * unregistered name with `-32602 Tool X not found` before any code of ours runs; this adds the
 * exposed tools to that answer, on the Transport seam. Upstream, McpServer could take the list (or
 * a message maker) for its unknown-tool error, and this file could go.
 */
import { ProtocolErrorCode, type McpServer, type Transport } from '@modelcontextprotocol/server';

const UNKNOWN_TOOL = /^Tool (.*) not found$/s;

/**
 * A view of `transport` whose send adds the names; the transport itself is left as it is, so that
 * another view of it (telemetry's) sends through its own send, not through this one and back.
 */
function namingTools(transport: Transport, names: ReadonlySet<string>): Transport {
  const send: Transport['send'] = (message, options) => {
    const error = (message as { error?: { code?: number; message?: string } }).error;
    if (
      error?.code === ProtocolErrorCode.InvalidParams &&
      typeof error.message === 'string' &&
      UNKNOWN_TOOL.test(error.message)
    )
      return transport.send(
        {
          ...message,
          error: { ...error, message: `${error.message}; the tools are ${[...names].join(', ')}` },
        } as typeof message,
        options,
      );
    return transport.send(message, options);
  };
  return new Proxy(transport, {
    get(target, key) {
      if (key === 'send') return send;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Every transport `mcp` connects to answers an unknown tool with the names in `tools` at the time. */
export function nameToolsOnUnknown(mcp: McpServer, tools: ReadonlySet<string>): void {
  const connect = mcp.connect.bind(mcp);
  mcp.connect = (transport) => connect(namingTools(transport, tools));
}
