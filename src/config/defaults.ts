/**
 * Every default a user can override, stated once: the option table (config.ts) shows them in
 * `--help` and the README, and the modules that need one when given nothing read it from here.
 */
export const DEFAULTS = {
  timeoutMs: 15_000,
  maxRetryWaitS: 20,
  logLevel: 'warn',
  logFormat: 'text',
  maxInFlight: 64,
  /** Loopback: nothing is reachable from another machine unless the user says so. */
  host: '127.0.0.1',
  httpPort: 3333,
  mockApiPort: 4010,
} as const;
