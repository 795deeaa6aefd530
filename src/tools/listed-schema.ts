/**
 * A zod schema as tools/list shows it. Input schemas are written for every client that maps them
 * onto its own dialect; output schemas, paid for in every conversation, say what a client builds
 * types from and the SDK's client validates structuredContent against, and nothing else. No client
 * hands an output schema to a model or maps it onto a one-`type` dialect: a nullable stays zod's
 * `type` array (legal JSON Schema 2020-12, and each `anyOf` spelling cost about 6 tokens more).
 */
import * as z from 'zod';
import { GUARDS } from '../contract/params.js';

type Schema = Record<string, unknown>;

/** The keywords that constrain one JSON type only: they go into that type's branch. */
const KEYWORDS_OF: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
};

/**
 * Keywords of an output schema that only validate: the server checked the API's answer already,
 * and no client builds a type from them.
 */
const VALIDATION_ONLY = [...new Set(Object.values(KEYWORDS_OF).flat()), 'minItems', 'maxItems', 'propertyNames'];

/**
 * How many levels of members the output schema names below each member of structuredContent;
 * deeper values are given their JSON type (and enum) only. `data` is the API's (a job's members in
 * a list, and in get_job a salary's too); `meta` is the API's as sent, its figures named again in
 * `provenance`; our own members (`provenance`, `notices`, a tool's extra) name theirs, whose own
 * insides are described in docs/contract.md rather than once per tool in every conversation.
 */
const NAMED_LEVELS: Record<string, number> = { data: 2, meta: 0 };
const OWN_LEVELS = 1;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isEmpty = (value: unknown) => isSchema(value) && Object.keys(value).length === 0;

/**
 * Calls `visit` on each schema inside `node`, by keyword: never on a map of names, so an argument
 * named like a keyword (`format`, `pattern`) is an argument still.
 */
function eachSubschema(node: Schema, visit: (schema: Schema) => void): void {
  for (const key of ['properties', '$defs', 'definitions'])
    if (isSchema(node[key])) Object.values(node[key]).forEach((child) => isSchema(child) && visit(child));
  for (const key of ['items', 'additionalProperties', 'not']) if (isSchema(node[key])) visit(node[key]);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((child) => isSchema(child) && visit(child));
}

/**
 * Input: zod writes a nullable as `type: ["string", "null"]` and a loose object's other members as
 * `additionalProperties: {}`; clients that map input schemas onto a one-`type` dialect (Gemini's
 * function declarations) reject the first, and MCP Inspector's `--strict` check flags both. The
 * same contract, portably: one `anyOf` branch per type, and `true`. An object with members lists them and no
 * `additionalProperties: false` (an unknown argument is refused by name all the same); one with none
 * keeps it, as the spec recommends for a tool without arguments.
 */
function portable(node: Schema): void {
  eachSubschema(node, portable);
  branched(node);
  if (isEmpty(node.additionalProperties)) node.additionalProperties = true;
  if (node.additionalProperties === false && isSchema(node.properties) && !isEmpty(node.properties))
    delete node.additionalProperties;
}

/**
 * Output: what types are built from, `depth` levels of members down; the keywords that only
 * validate left out, and so is `additionalProperties: false` (the server builds every answer from
 * strict schemas; a type built without it only gains an index signature).
 */
function lean(node: Schema, depth: number): Schema {
  // Branches first: each is leaned at this node's depth.
  const branches = Array.isArray(node.anyOf)
    ? node.anyOf.map((branch: unknown) => (isSchema(branch) ? lean(branch, depth) : branch))
    : undefined;
  const { anyOf: _branches, ...rest } = node;
  // Branches that give a type only are one type array.
  const bare = branches?.every((branch) => isSchema(branch) && Object.keys(branch).join() === 'type');
  const types = bare ? [...new Set(branches!.flatMap((branch) => (branch as Schema).type))] : undefined;
  const schema: Schema = types ? { ...rest, type: types } : branches ? { ...rest, anyOf: branches } : rest;
  if (depth <= 0 && schema.type !== undefined)
    return schema.enum === undefined ? { type: schema.type } : { type: schema.type, enum: schema.enum };
  for (const keyword of VALIDATION_ONLY) delete schema[keyword];
  // Anything else allowed is what a schema without the keyword says.
  if (typeof schema.additionalProperties !== 'object' || isEmpty(schema.additionalProperties))
    delete schema.additionalProperties;
  const below = (child: unknown) => (isSchema(child) ? lean(child, depth - 1) : child);
  if (isSchema(schema.properties))
    schema.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, child]) => [key, below(child)]),
    );
  // An array's items are its members' level: `jobs` names each job's members.
  if (isSchema(schema.items)) schema.items = lean(schema.items, depth);
  if (isSchema(schema.additionalProperties)) schema.additionalProperties = below(schema.additionalProperties);
  return schema;
}

/**
 * `node`'s type array, if it has one, as one `anyOf` branch per type, each with its type's keywords
 * (portable, above, says why); in place, and returned.
 */
function branched(node: Schema): Schema {
  if (!Array.isArray(node.type)) return node;
  const types = node.type as string[];
  delete node.type;
  node.anyOf = types.map((type) => {
    const branch: Schema = { type };
    for (const keyword of KEYWORDS_OF[type] ?? []) if (keyword in node) branch[keyword] = node[keyword];
    return branch;
  });
  for (const type of types) for (const keyword of KEYWORDS_OF[type] ?? []) delete node[keyword];
  return node;
}

/**
 * zod bounds every int by the safe-integer range, and writes the dialect: neither says anything to
 * a client, and each costs tokens in every conversation.
 */
function plain(node: Schema): void {
  eachSubschema(node, plain);
  if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
  delete node.$schema;
}

/** The keywords a guard's check writes, by the check's kind: a string's or an array's length. */
const GUARD_KEYWORDS: Record<string, readonly string[]> = {
  max_length: ['maxLength', 'maxItems'],
  min_length: ['minLength', 'minItems'],
};

/** Our own bounds (contract/params.ts) are enforced, not listed. */
function withoutGuards({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodTypes; jsonSchema: Schema }): void {
  const checks = (zodSchema._zod.def as { checks?: z.core.$ZodCheck<never>[] }).checks ?? [];
  for (const check of checks) {
    if (!GUARDS.has(check)) continue;
    const kind = (check._zod.def as { check: string }).check;
    for (const keyword of GUARD_KEYWORDS[kind] ?? []) delete jsonSchema[keyword];
  }
}

/** A bridged tool's input schema (already read and capped by hosted/admit.ts) as tools/list shows it. */
export function listedInput(schema: Schema): Schema {
  const copy = structuredClone(schema);
  plain(copy);
  portable(copy);
  return copy;
}

/** `schema` as JSON Schema for tools/list: its arguments (`input`) or its structuredContent (`output`). */
export function listedSchema(schema: z.ZodType, io: 'input' | 'output'): Schema & { type: 'object' } {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', override: withoutGuards }) as Schema;
  plain(json);
  if (io === 'input') {
    // After conversion: zod writes a nullable's types as an array.
    portable(json);
    return json as Schema & { type: 'object' };
  }
  const { type, properties, required } = json as Schema & { properties: Record<string, Schema> };
  const members = Object.entries(properties).map(([key, member]) => [
    key,
    lean(member, NAMED_LEVELS[key] ?? OWN_LEVELS),
  ]);
  return { type, properties: Object.fromEntries(members), required } as Schema & { type: 'object' };
}
