/**
 * The one place configuration is decided: flags > environment > defaults (options.ts), validated
 * (schema.ts) into one frozen Config. Each step is a pure function so it can be tested without a process.
 */
import type * as z from 'zod';
import { redactSecrets } from '../lib/redact.js';
import { envName, flagName, OPTION_TABLE, type RawOptions } from './options.js';
import { ConfigSchema } from './schema.js';

export type Config = Readonly<z.output<typeof ConfigSchema>>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off', '']);

function envBoolean(env: NodeJS.ProcessEnv, key: string): boolean | undefined {
  const raw = env[envName(key)];
  if (raw === undefined) return undefined;
  const value = raw.trim().toLowerCase();
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw new ConfigError(`${envName(key)}=${JSON.stringify(raw)} is not a boolean (use 1 or 0)`);
}

/** Merges the sources (flag > env > default) into an unvalidated candidate. */
export function mergeSources(flags: RawOptions, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const merged: Record<string, unknown> = Object.fromEntries(
    OPTION_TABLE.map((o) => [
      o.key,
      flags[o.key] ?? (env[o.env]?.trim() ? env[o.env] : undefined) ?? ('default' in o ? o.default : undefined),
    ]),
  );
  const lower = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : value);
  const noCacheEnv = envBoolean(env, 'cache');
  const noBridgeEnv = envBoolean(env, 'bridge');
  return {
    ...merged,
    offline: flags.offline ?? envBoolean(env, 'offline') ?? false,
    logLevel: lower(merged.logLevel),
    logFormat: lower(merged.logFormat),
    // commander gives cache=true by default and false for --no-cache; only the explicit flag outranks env.
    cache: flags.cache !== false && noCacheEnv !== true,
    bridge: flags.bridge !== false && noBridgeEnv !== true,
  };
}

/** Validates merged sources into a frozen Config, or throws a ConfigError naming the flag and env var. */
export function resolveConfig(flags: RawOptions = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const merged = mergeSources(flags, env);
  // Parsed once, and built before cli.ts turns zod's compiled parsers off: compiled, it is thrown away.
  const parsed = ConfigSchema.safeParse(merged, { jitless: true });
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '');
      // Never echo a password from a base URL into an error message (or the log that prints it).
      const shown = redactSecrets(JSON.stringify(merged[key]) ?? 'undefined');
      return `${flagName(key)} / ${envName(key)}: ${shown} ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration: ${messages.join('; ')}`);
  }
  // Offline answers from the embedded fictional data: with a base URL too, one of them is a mistake,
  // and guessing which would hide it.
  if (parsed.data.offlineReason === 'requested' && parsed.data.baseUrl !== undefined) {
    throw new ConfigError(
      `invalid configuration: ${flagName('offline')} / ${envName('offline')} and ${flagName('baseUrl')} / ${envName('baseUrl')} are both set; --offline answers from the embedded fictional data and would ignore the base URL: set one of them`,
    );
  }
  const c = parsed.data;
  const both = (a: string, b: string, why: string) =>
    new ConfigError(`invalid configuration: ${flagName(a)} / ${envName(a)} and ${flagName(b)} / ${envName(b)} ${why}`);
  if (c.authTokensFile !== undefined && c.authIssuer !== undefined)
    throw both('authTokensFile', 'authIssuer', 'are both set; choose static tokens or OAuth, not both');
  if ((c.authIssuer === undefined) !== (c.authAudience === undefined))
    throw both(
      'authIssuer',
      'authAudience',
      'go together: OAuth tokens are checked for their issuer and for this resource',
    );
  if (c.authScopes !== undefined && c.authIssuer === undefined)
    throw both('authScopes', 'authIssuer', 'go together: scopes are read from OAuth access tokens');
  return Object.freeze(c);
}
