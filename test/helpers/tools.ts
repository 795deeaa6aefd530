import type { AnyTool } from '../../src/tools/define.js';
import { TOOLS } from '../../src/tools/index.js';

/** The tool of this name among `tools` (all of ours by default). */
export const findTool = (name: string, tools: readonly AnyTool[] = TOOLS): AnyTool | undefined =>
  tools.find((tool) => tool.name === name);
