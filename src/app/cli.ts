/**
 * The commander front-end, and the only module that writes to stdout on purpose. With no
 * subcommand it runs the stdio MCP server; heavier modes are imported only when chosen.
 */
import { Command, CommanderError, Option } from 'commander';
import * as z from 'zod';
import { ConfigError } from '../config/config.js';
import { DEFAULTS } from '../config/defaults.js';
import { OPTION_TABLE } from '../config/options.js';
import { PACKAGE_NAME, VERSION } from '../contract/version.js';
import { limitHeapGrowth } from '../lib/heap-growth.js';
import {
  authGateFor,
  configFrom,
  ONE_CALL_REDIS_WAIT_MS,
  telemetryFor,
  EXIT_OK,
  EXIT_TOOL_ERROR,
  EXIT_USAGE,
  isBindError,
  parseJsonArgs,
  parsePort,
  UsageError,
} from './command-parts.js';

// zod writes an object schema's parser with `new Function` at its first parse, which pays only for
// a schema parsed many times. A process parses most of the SDK's and ours a few times, and each
// start paid about 3 ms for 14 such parsers. The per-call validators are zod's own compiled ones
// (lib/compiled.ts), which this leaves alone. zod reads the setting as each schema is made, so it
// holds for every schema made after this line; the configuration's, made before, is parsed with it
// instead (config.ts).
z.config({ jitless: true });

const EXAMPLES = `
Examples:
  $ npx -y service-mcp                                  MCP server over stdio (for Claude Desktop, IDEs)
  $ service-mcp tools                                   list the tools
  $ service-mcp call search_jobs '{"q":"rust","domain":"web3","per_page":5}'
  $ service-mcp call get_job '{"job_id":"job_ai_0001"}' --json
  $ service-mcp --base-url https://api.example.com call check_api_health
  $ service-mcp mock-api --port 4010                    serve the embedded offline API over HTTP
  $ service-mcp serve --http --port 3333                MCP over Streamable HTTP at http://127.0.0.1:3333/mcp

Without --base-url (or SERVICE_MCP_BASE_URL) every command uses the embedded offline
snapshot, and every result says so.`;

/** Writes to stdout and resolves once it is flushed, so an exit right after loses nothing. */
function print(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`, () => resolve()));
}

export function buildProgram(): Command {
  const program = new Command(PACKAGE_NAME)
    .description(
      'MCP server for the public hiring-intelligence API (AI and web3 jobs, market map, interview briefs).\nWith no command, serves MCP over stdio.',
    )
    .version(VERSION, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const option of OPTION_TABLE) {
    // The default is shown, not set: config.ts applies defaults after the environment is read.
    const shown = 'default' in option ? `, default ${String(option.default)}` : '';
    program.addOption(new Option(option.flag, `${option.description} [env ${option.env}${shown}]`));
  }
  program.addHelpText('after', EXAMPLES);

  program.action(async (_options, command: Command) => {
    const { config, logger } = configFrom(command);
    limitHeapGrowth();
    const [{ runStdio }, { startBackend }] = await Promise.all([
      import('../transports/stdio.js'),
      import('./start-backend.js'),
    ]);
    const backend = await startBackend(config, logger);
    await telemetryFor(config, logger, backend);
    // After stdin ends, a wait as long as one request may take, with no answer, means a call is stuck.
    runStdio({ backend, logger, endGraceMs: config.timeoutMs, maxInFlight: config.maxInFlight });
  });

  program
    .command('tools')
    .description('list the tools, one line each (--json: their full definitions)')
    .option('--json', 'print the full tool definitions as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { config, logger } = configFrom(command); // a bad global option is bad usage here too
      const [{ toolCatalog, toolLine }, tools] = await Promise.all([
        import('../tools/tools-list.js'),
        import('./start-backend.js').then(({ listedTools }) => listedTools(config, logger)),
      ]);
      const width = Math.max(...tools.map((t) => t.name.length));
      await print(
        options.json
          ? JSON.stringify(toolCatalog(tools), null, 2)
          : tools.map((t) => `${t.name.padEnd(width)}  ${toolLine(t)}`).join('\n'),
      );
      // The bridge's connection to the hosted surface must not hold the process once the list is out.
      process.exit(EXIT_OK);
    });

  program
    .command('call')
    .description('call one tool once and print its text result (exit 0 ok, 1 tool error, 2 usage)')
    .argument('<tool>', 'tool name, as listed by `service-mcp tools`')
    .argument('[json-args]', 'tool arguments as a JSON object')
    .option('--json', 'print the whole result (content, structuredContent, isError) as JSON')
    .action(async (name: string, jsonArgs: string | undefined, options: { json?: boolean }, command: Command) => {
      const { config, logger } = configFrom(command);
      const [{ runTool }, { startBackend }, { exposedTools, unreadBridge }] = await Promise.all([
        import('../tools/run.js'),
        import('./start-backend.js'),
        import('../tools/backend.js'),
      ]);
      const args = parseJsonArgs(jsonArgs);
      // One call: Redis gets a quarter second to connect, not a server's start-up wait.
      const backend = await startBackend(config, logger, { redisWaitMs: ONE_CALL_REDIS_WAIT_MS });
      // A name that is not ours may be a bridged tool's: known once the hosted list is read.
      if (!backend.tools.some((t) => t.name === name)) await backend.bridge?.settled(config.timeoutMs);
      const tools = exposedTools(backend);
      const tool = tools.find((t) => t.name === name);
      if (!tool)
        throw new UsageError(
          `unknown tool ${JSON.stringify(name)}; tools: ${tools.map((t) => t.name).join(', ')}${config.tools ? ' (--tools)' : ''}${unreadBridge(backend.bridge, config.timeoutMs)}`,
        );
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort(new Error('interrupted')));
      const { client, mode, bridge } = backend;
      const result = await runTool(tool, args, { client, mode, bridge, signal: controller.signal });
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      await print(options.json ? JSON.stringify(result, null, 2) : text);
      process.exit(result.isError ? EXIT_TOOL_ERROR : EXIT_OK);
    });

  program
    .command('mock-api')
    .description(
      'serve the embedded offline API over HTTP (same paths as the hosted API, the tool endpoint POST /api/public/v1/mcp included)',
    )
    .option('--port <n>', 'port to listen on (0 picks a free one)', String(DEFAULTS.mockApiPort))
    .option('--host <host>', 'interface to bind', DEFAULTS.host)
    .action(async (options: { port: string; host: string }, command: Command) => {
      const { config, logger } = configFrom(command);
      const port = parsePort(options.port);
      const { startMockApi } = await import('./mock-api.js');
      const server = await startMockApi({ config, logger, host: options.host, port });
      await print(
        `mock-api listening on ${server.url} (embedded offline snapshot; try ${server.url}/api/public/v1, and MCP at POST ${server.url}/api/public/v1/mcp?surface=market)`,
      );
      const stop = () => void server.close().finally(() => process.exit(EXIT_OK));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      const { onLauncherGone } = await import('../lib/launcher.js');
      onLauncherGone(stop);
      logger.info('mock-api ready');
    });

  program
    .command('serve')
    .description(
      'serve MCP over stateless Streamable HTTP at POST /mcp and POST /api/public/v1/mcp (loopback only unless --host says otherwise)',
    )
    .option('--http', 'use the Streamable HTTP transport (required: stdio is the default command)')
    .option('--host <host>', 'interface to bind (0.0.0.0 exposes it beyond this machine)', DEFAULTS.host)
    .option('--port <n>', 'port to listen on (0 picks a free one)', String(DEFAULTS.httpPort))
    .option(
      '--allowed-hosts <list>',
      'comma-separated extra Host names (name or name:port) accepted besides localhost, 127.0.0.1, [::1]',
    )
    .option(
      '--allowed-origins <list>',
      'comma-separated browser origins accepted (and answered with CORS headers), e.g. https://app.example.com',
    )
    .action(
      async (
        options: { http?: boolean; host: string; port: string; allowedHosts?: string; allowedOrigins?: string },
        command: Command,
      ) => {
        if (!options.http) throw new UsageError('serve needs --http (for stdio, run service-mcp with no command)');
        const port = parsePort(options.port);
        const { config, logger } = configFrom(command);
        const [{ startBackend }, http, { HttpOptionError, splitList }, { createAuthGate, reloadOnHangup }] =
          await Promise.all([
            import('./start-backend.js'),
            import('../transports/http.js'),
            import('../transports/http-guard.js'),
            import('../transports/auth/gate.js'),
          ]);
        const auth = await authGateFor(createAuthGate, config, logger);
        const backend = await startBackend(config, logger);
        await telemetryFor(config, logger, backend);
        const running = await http
          .startHttpServer({
            backend,
            logger,
            host: options.host,
            port,
            allowedHosts: splitList(options.allowedHosts),
            allowedOrigins: splitList(options.allowedOrigins),
            maxInFlight: config.maxInFlight,
            auth,
          })
          .catch((error: unknown) => {
            if (error instanceof HttpOptionError) throw new UsageError(error.message);
            // A taken port or an address this machine does not have is the caller's to change.
            if (isBindError(error))
              throw new UsageError(`cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
            throw error;
          });
        http.stopOnSignals(running, logger);
        if (auth.required) reloadOnHangup(auth, logger);
        await print(`${PACKAGE_NAME} HTTP listening on ${running.url}`);
        logger.info(`HTTP server ready (${config.offline ? 'offline snapshot' : config.baseUrl})`);
      },
    );

  return program;
}

const HELP_OR_VERSION = ['commander.helpDisplayed', 'commander.version', 'commander.help'];

export async function main(argv: readonly string[] = process.argv): Promise<void> {
  // `service-mcp call … | head` closes the pipe early: that is the reader's choice, not a crash.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT_OK);
    throw error;
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv as string[]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are successes; every other parse failure is bad usage.
      process.exit(HELP_OR_VERSION.includes(error.code) ? EXIT_OK : EXIT_USAGE);
    }
    // An unknown --tools name is found where the registry is loaded (tools/index.ts): bad usage all the same.
    if (
      error instanceof ConfigError ||
      error instanceof UsageError ||
      (error instanceof Error && error.name === 'UnknownToolError')
    ) {
      process.stderr.write(`${PACKAGE_NAME}: ${error.message}\n`);
      process.exit(EXIT_USAGE);
    }
    process.stderr.write(
      `${PACKAGE_NAME}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(EXIT_TOOL_ERROR);
  }
}

await main();
