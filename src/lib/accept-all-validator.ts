/**
 * The JSON Schema validator we hand the SDK (server and client alike): it accepts every value.
 * Arguments are validated once, in tools/run.ts and tools/run-hosted.ts, and a bridged tool's
 * structuredContent in hosted/answer.ts, each with an error that names what failed; the SDK's
 * own check would be a second, with words of its own.
 */
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';

export const ACCEPT_ALL: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};
