/** What tools/list shows of a schema: inputs portable and short, outputs short and still true. */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { listedInput, listedSchema } from '../../../src/tools/listed-schema.js';

describe('listed input schemas', () => {
  it("keep an argument named like a keyword (format, pattern, minimum), and the spec's constraints (CONTRACT.md: lengths, ranges, patterns, enums)", () => {
    const listed = listedInput({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        format: { type: 'string', enum: ['csv', 'json'] },
        pattern: { type: 'string', minLength: 1, pattern: '^a' },
        minimum: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
      },
      additionalProperties: false,
    });
    expect(listed).toEqual({
      type: 'object',
      properties: {
        format: { type: 'string', enum: ['csv', 'json'] },
        pattern: { type: 'string', minLength: 1, pattern: '^a' },
        minimum: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
      },
    });
  });

  it('write a union as anyOf branches, never a type array, and keep additionalProperties: false with no arguments', () => {
    expect(listedSchema(z.strictObject({ id: z.union([z.int(), z.string()]).nullable() }), 'input')).toEqual({
      type: 'object',
      properties: { id: { anyOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { type: 'null' }] } },
      required: ['id'],
    });
    expect(listedSchema(z.strictObject({}), 'input')).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });
});

describe('listed output schemas', () => {
  const schema = z.object({
    data: z.looseObject({
      jobs: z.array(
        z.looseObject({
          id: z.union([z.int(), z.string()]).nullable(),
          salary: z.looseObject({ min: z.number().min(0).nullable(), source: z.string() }).nullable(),
        }),
      ),
    }),
    meta: z.looseObject({ source: z.string().optional() }),
    provenance: z.object({
      reached: z.enum(['embedded', 'http']),
      cache: z.object({ hit: z.boolean() }).optional(),
    }),
  });

  it('write nullables as type arrays (no client maps an output schema onto a one-type dialect), drop additionalProperties, and give values below the named levels their type only', () => {
    expect(listedSchema(schema, 'output')).toEqual({
      type: 'object',
      properties: {
        data: {
          type: 'object',
          properties: {
            jobs: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  id: { type: ['integer', 'string', 'null'] },
                  salary: { type: ['object', 'null'] },
                },
                required: ['id', 'salary'],
              },
            },
          },
          required: ['jobs'],
        },
        meta: { type: 'object' },
        provenance: {
          type: 'object',
          properties: { reached: { type: 'string', enum: ['embedded', 'http'] }, cache: { type: 'object' } },
          required: ['reached'],
        },
      },
      required: ['data', 'meta', 'provenance'],
    });
  });

  it('accept what the full schema accepts, as the SDK client validates it', () => {
    const validate = new AjvJsonSchemaValidator().getValidator(listedSchema(schema, 'output'));
    const answer = {
      data: {
        jobs: [
          { id: null, salary: null },
          { id: 7, salary: { min: null, source: 'x', extra: 1 } },
        ],
        more: 1,
      },
      meta: { source: 's', other: true },
      provenance: { reached: 'http', cache: { hit: true } },
    };
    expect(schema.safeParse(answer).success).toBe(true);
    expect(validate(answer)).toMatchObject({ valid: true });
    expect(validate({ ...answer, provenance: { reached: 'elsewhere' } })).toMatchObject({ valid: false });
  });
});
