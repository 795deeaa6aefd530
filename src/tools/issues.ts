/** Turns zod issues into one-line messages that name the argument and the rule that was broken. */
import type * as z from 'zod';
import { formatJsonPath } from '../contract/schemas.js';

function shown(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const PLAIN_NAME = /^[A-Za-z_$][\w$]{0,59}$/;

/** An argument name as the caller sent it: bare when it is a plain name, else quoted and cut. */
function keyName(key: PropertyKey): string {
  const text = String(key);
  return PLAIN_NAME.test(text) ? text : shown(text);
}

/**
 * Types stay strict: a string holding a number, boolean, array or object is refused (coercion
 * would accept "1e2", "0x14" or " 20 " and read "false" as true). The message says how to send
 * it instead, so the caller can fix it in one turn.
 */
function stringifiedHint(expected: string, input: unknown): string {
  if (typeof input !== 'string') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    return '';
  }
  const kind = typeName(parsed) === 'number' && !Number.isFinite(parsed) ? 'nothing' : typeName(parsed);
  const wanted = expected === 'int' ? 'number' : expected;
  return kind === wanted ? ` (send the ${wanted} itself, not a string: ${shown(parsed)})` : '';
}

const argumentName = (path: ReadonlyArray<PropertyKey>): string => formatJsonPath(path, keyName, '');

const article = (noun: string) => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

/** One wording for every count: `1 character`, `200 characters`. */
const count = (n: unknown, noun: string) => `${String(n)} ${noun}${Number(n) === 1 ? '' : 's'}`;

/** The JavaScript type an expected zod type asks for (an integer is a number). */
const jsType = (expected: string) => (expected === 'int' ? 'number' : expected);

/**
 * A union (company_id: an integer or a string) fails in every branch; the branch of the input's own
 * type says what is wrong with it, and when there is none, the types that would do are named.
 */
function unionRule(branches: ReadonlyArray<readonly z.core.$ZodIssue[]>, input: unknown): string {
  const sameType = branches.find((branch) =>
    branch.every((issue) => issue.code !== 'invalid_type' || jsType(issue.expected) === typeName(issue.input)),
  );
  if (sameType?.[0]) return rule(sameType[0]);
  const wanted = branches.flatMap((branch) =>
    branch.flatMap((issue) =>
      issue.code === 'invalid_type' ? [article(issue.expected === 'int' ? 'integer' : issue.expected)] : [],
    ),
  );
  return `must be ${wanted.join(' or ')}, got ${typeName(input)} ${shown(input)}`;
}

function rule(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `is required (${issue.expected})`;
      return `must be ${article(issue.expected === 'int' ? 'integer' : issue.expected)}, got ${typeName(issue.input)} ${shown(issue.input)}${stringifiedHint(issue.expected, issue.input)}`;
    case 'too_small':
      if (issue.origin === 'string') return `must be at least ${count(issue.minimum, 'character')} long`;
      if (issue.origin === 'array') return `must have at least ${count(issue.minimum, 'item')}`;
      return `must be ${issue.inclusive === false ? 'greater than' : 'at least'} ${String(issue.minimum)}, got ${shown(issue.input)}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${count(issue.maximum, 'character')} long`;
      if (issue.origin === 'array') return `must have at most ${count(issue.maximum, 'item')}`;
      return `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}, got ${shown(issue.input)}`;
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue
        ? `must match ${String(issue.pattern)}, got ${shown(issue.input)}`
        : `must be a valid ${issue.format}, got ${shown(issue.input)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${shown(issue.input)}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `is not an argument of this tool`;
    case 'invalid_union':
      return unionRule(issue.errors, issue.input);
    default:
      return issue.message;
  }
}

/** `per_page: must be at most 100, got 500`; unknown arguments are named one by one. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], accepted: readonly string[]): string {
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        lines.push(
          `${argumentName([...issue.path, key])}: is not an argument of this tool (accepted: ${accepted.join(', ') || 'none'})`,
        );
      continue;
    }
    const name = argumentName(issue.path);
    lines.push(name === '' ? rule(issue) : `${name}: ${rule(issue)}`);
  }
  return lines.join('; ');
}
