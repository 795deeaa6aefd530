/**
 * An unknown tool's protocol error names the tools that exist. The SDK answers a tools/call for a
 * name it has not registered with `-32602 Tool X not found` before any code of ours runs, and says
 * nothing of what would do; this adds the exposed tools (`--tools` honoured) to that answer, on the
 * Transport seam, for stdio and HTTP alike. Upstream, McpServer could take the list (or a message
 * maker) for its unknown-tool error, and this file could go.
 */
import { ProtocolErrorCode, type McpServer, type Transport } from '@modelcontextprotocol/server';

const UNKNOWN_TOOL = /^Tool (.*) not found$/s;

function namingTools(transport: Transport, names: readonly string[]): Transport {
  const send = transport.send.bind(transport);
  const list = names.join(', ');
  transport.send = (message, options) => {
    const error = (message as { error?: { code?: number; message?: string } }).error;
    if (error?.code === ProtocolErrorCode.InvalidParams && typeof error.message === 'string') {
      const match = UNKNOWN_TOOL.exec(error.message);
      if (match)
        return send(
          { ...message, error: { ...error, message: `${error.message}; the tools are ${list}` } } as typeof message,
          options,
        );
    }
    return send(message, options);
  };
  return transport;
}

/** Every transport `mcp` connects to answers an unknown tool with the names of `tools`. */
export function nameToolsOnUnknown(mcp: McpServer, tools: readonly string[]): void {
  const connect = mcp.connect.bind(mcp);
  mcp.connect = (transport) => connect(namingTools(transport, tools));
}
