/** Types of bench/tokens.mjs, for the test that holds its counts to a baseline. */
export interface TokenCounts {
  tools: number;
  tools_ours: number;
  client_part: number;
  client_part_ours: number;
  instructions: number;
  tools_list: number;
  tools_list_ours: number;
  session_text: number;
  session_structured: number;
  largest_text: number;
  largest_text_call: string;
  largest_structured: number;
}
export function tokens(value: unknown): number;
export function measureTokens(): Promise<TokenCounts>;
export function formatTokens(counts: TokenCounts): string;
