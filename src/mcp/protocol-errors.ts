/**
 * One-line protocol errors on stdio (the line transport's `send`). The SDK's request validation
 * throws a plain Error whose message is the zod issue list dumped as indented JSON, with no issues
 * as data: that text is condensed here to `path: message` items on one line. SDK gap: a structured
 * `data.issues` on that -32602 (or a formatting hook) would retire this file.
 */
import { isRecord } from '../lib/is-record.js';

const DUMPED_ISSUES = /^([^\n]*?):?\s*(\[\s*\{[\s\S]*\])\s*$/;

export function condenseErrorMessage(message: string): string {
  if (!message.includes('\n')) return message;
  const match = DUMPED_ISSUES.exec(message);
  let issues: unknown;
  try {
    issues = match ? JSON.parse(match[2]!) : undefined;
  } catch {
    issues = undefined;
  }
  if (!Array.isArray(issues)) return message.replace(/\s*\n\s*/g, ' ');
  const said = issues.map((issue) => {
    if (!isRecord(issue)) return String(issue);
    const path = Array.isArray(issue.path) && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return `${path}${typeof issue.message === 'string' ? issue.message : 'invalid'}`;
  });
  return `${match![1]}: ${said.join('; ')}`;
}
