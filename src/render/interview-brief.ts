/**
 * The interview package is free-form upstream text, so it is shown as data in a fence: a brief
 * could contain anything, and the model must read it as material, not as instructions.
 */
import type { InterviewBriefData } from '../api/schemas.js';
import { fencedData, oneLine, quote } from './text.js';

export function renderInterviewBrief(data: InterviewBriefData): string {
  const company = typeof data.company === 'object' && data.company !== null ? (data.company as Record<string, unknown>) : data;
  const name = typeof company.name === 'string' && oneLine(company.name) !== '' ? quote(company.name, 100) : undefined;
  const heading = name ? `Interview brief for ${name} (upstream data below):` : 'Interview brief (upstream data below):';
  return `${heading}\n${fencedData(data, 6_000)}`;
}
