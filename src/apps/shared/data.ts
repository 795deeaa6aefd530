/**
 * Reading a tool result the way every view does: its structuredContent (as tools/run.ts builds it),
 * or the error text. The data is the API's, so each field is type-checked where it is read.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Provenance } from '../../contract/provenance.js';
import { isRecord } from '../../lib/is-record.js';

export type Json = Record<string, unknown>;
export type { Provenance };

export interface Structured {
  data: Json;
  meta: Json;
  provenance: Provenance;
  notices: string[];
}

export type ReadResult = { ok: true; value: Structured } | { ok: false; message: string };

export { isRecord };
export const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
export const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
export const records = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);
export const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

export function readResult(result: CallToolResult): ReadResult {
  const text = result.content?.find((block) => block.type === 'text')?.text;
  if (result.isError) return { ok: false, message: text ?? 'The tool call failed.' };
  const content = result.structuredContent;
  if (!isRecord(content) || !isRecord(content.provenance))
    return { ok: false, message: 'The result carries no structured data this view can show.' };
  return {
    ok: true,
    value: {
      data: isRecord(content.data) ? content.data : {},
      meta: isRecord(content.meta) ? content.meta : {},
      provenance: content.provenance as unknown as Provenance,
      notices: strings(content.notices),
    },
  };
}
