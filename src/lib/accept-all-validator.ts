/**
 * The JSON Schema validator we hand the SDK (server and client alike): it accepts every value.
 * Arguments are validated once, in tools/run.ts and tools/run-hosted.ts, and a bridged tool's
 * structuredContent in render/hosted-answer.ts, each naming what failed; the SDK's would be a second.
 */
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';

export const ACCEPT_ALL: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};
