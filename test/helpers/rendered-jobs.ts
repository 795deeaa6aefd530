/**
 * A reader of the job text, written from the layout the README shows rather than from the
 * renderer: quoted strings are JSON strings, every other value is one bare word (or an ISO
 * timestamp), and each job line has exactly one salary with one evidence label. A line that does
 * not parse, or parses to a label other than the job's real class, is text an upstream value forged.
 */

const QUOTED = /"(?:[^"\\]|\\.)*"/g;
// Rendered text never holds U+0000 (upstream text is cleaned of it), so it can stand for a quoted value.
const SLOT = '\u0000';
const BARE = '[A-Za-z0-9/][A-Za-z0-9_.+/-]*';
const TIMESTAMP =
  '\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d{2}(?::?\\d{2})?)?)?';
const V = `(?:${SLOT}|${TIMESTAMP}|${BARE})`;

const LABEL = `(?<label>disclosed|extracted|predicted: model estimate, not disclosed|source ${SLOT}…?: unrecognised evidence class, shown as given)`;
const AMOUNT = `(?:${V}|${V} (?:\\d+(?:\\.\\d+)?–\\d+(?:\\.\\d+)?|from \\d+(?:\\.\\d+)?|up to \\d+(?:\\.\\d+)?|\\(no amount\\)))`;
// Our words after a value: its age at retrieval, and a non-USD range's ISO code.
const AGE =
  "(?: \\((?:just now|age unknown|\\d+ (?:minute|hour|day)s? ago|\\d+ (?:minute|hour|day)s? later than this server's clock \\(a clock is off\\))\\))?";
const CURRENCY = `(?: \\(${V}\\))?`;
// The company's type, id and slug, as many as the API gives, in that order.
const COMPANY_FACTS = `(?: \\((?:${V}|company_id -?\\d+|slug ${V})(?:; (?:company_id -?\\d+|slug ${V}))*\\))?`;
const JOB_LINE = new RegExp(
  `^(?:\\d+\\. )?${V} ${SLOT}(?: \\(${V}\\))? at ${SLOT}${COMPANY_FACTS} \\| (?:location not stated|${V}(?:, ${V})?)(?:; ${V})? \\| ${V}, (?:last_seen ${V}${AGE}|last_seen not stated) \\| salary: (?<salary>none|${AMOUNT}${CURRENCY} \\[${LABEL}\\])$`,
);

export interface ParsedJobLine {
  /** `none`, `disclosed`, `extracted`, `predicted`, or the unrecognised class as shown (JSON-decoded). */
  salaryClass: string;
  /** The quoted values of the line, decoded, in order. */
  quoted: string[];
}

/** Splits the quoted JSON strings out of a line: the skeleton with a slot for each, and their values. */
export function unquote(line: string): { skeleton: string; quoted: string[] } {
  const quoted: string[] = [];
  const skeleton = line.replace(QUOTED, (match) => {
    quoted.push(JSON.parse(match) as string);
    return SLOT;
  });
  return { skeleton, quoted };
}

/** The salary class a job line states, or undefined when the line is not in our layout. */
export function parseJobLine(line: string): ParsedJobLine | undefined {
  if (line.includes(SLOT)) return undefined;
  const { skeleton, quoted } = unquote(line);
  const match = JOB_LINE.exec(skeleton);
  if (!match) return undefined;
  const { salary, label } = match.groups!;
  if (salary === 'none') return { salaryClass: 'none', quoted };
  if (label!.startsWith('source ')) return { salaryClass: quoted[quoted.length - 1]!, quoted };
  return { salaryClass: label!.startsWith('predicted') ? 'predicted' : label!, quoted };
}
