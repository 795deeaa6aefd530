/**
 * One-line protocol errors on stdio (the line transport's `send`). The SDK words a request whose params fail its schema as a prefix and
 * the schema library's issue list dumped as indented JSON over many lines; a client shows that
 * to its user as noise. This keeps the SDK's prefix and code and says each issue as `path:
 * message` on one line. Upstream, the SDK's request validation could format its issues so, and
 * this file could go.
 */
import { isRecord } from '../is-record.js';

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
