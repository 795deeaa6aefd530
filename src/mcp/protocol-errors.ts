/**
 * One-line protocol errors. The SDK words a request whose params fail its schema as a prefix and
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

/** How a dumped issue list starts inside a serialized message string (its newline escaped). */
export const DUMP_MARK = ': [\\n  {';

/**
 * The same for JSON-RPC text as written on the wire: a JSON body, or the `data:` lines of SSE
 * events. Text without a dumped issue list is returned as it is, unparsed.
 */
export function condenseWireText(text: string): string {
  if (!text.includes(DUMP_MARK)) return text;
  return text
    .split('\n')
    .map((line) => {
      if (!line.includes(DUMP_MARK)) return line;
      const prefix = line.startsWith('data: ') ? 'data: ' : '';
      try {
        const message = JSON.parse(line.slice(prefix.length)) as { error?: { message?: unknown } };
        if (!isRecord(message.error) || typeof message.error.message !== 'string') return line;
        return `${prefix}${JSON.stringify({ ...message, error: { ...message.error, message: condenseErrorMessage(message.error.message) } })}`;
      } catch {
        return line;
      }
    })
    .join('\n');
}
