/**
 * How a command ends and what it says: exit 0 ok, 1 a tool error (or a defect), 2 bad usage; the
 * arguments a command parses itself; and stdout written so that an exit right after loses nothing.
 */
import { isRecord } from '../lib/is-record.js';

export const EXIT_OK = 0;
export const EXIT_TOOL_ERROR = 1;
export const EXIT_USAGE = 2;

export class UsageError extends Error {}

/** Writes to stdout and resolves once it is flushed, so an exit right after loses nothing. */
export function print(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`, () => resolve()));
}

/** A --port value: a whole number from 0 to 65535. */
export function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65_535)
    throw new UsageError(`--port must be a whole number from 0 to 65535, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** A port taken, or an address this machine does not have or may not bind: the caller's to change. */
const BIND_ERRORS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND']);
export const isBindError = (error: unknown) => BIND_ERRORS.has(String((error as NodeJS.ErrnoException).code));

export function parseJsonArgs(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `json-args is not valid JSON: ${(error as Error).message}. Example: '{"q":"rust","per_page":5}'`,
    );
  }
  if (!isRecord(value)) throw new UsageError('json-args must be a JSON object, e.g. \'{"job_id":"job_ai_0001"}\'');
  return value;
}
