/** What a client lists, and the list once the bridged tools are in it: for the v2 and v1 SDK clients alike. */
import { MARKET_TOOLS } from './dataset.js';

interface Lister {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
}

export const names = async (client: Lister): Promise<string[]> => (await client.listTools()).tools.map((t) => t.name);

/**
 * The first tools/list waits for the hosted list only 1.5 s, which a loaded machine may not keep,
 * so it is asked again until the bridged tools are there (counted attempts, no timed assertion;
 * the test's own timeout bounds it).
 */
export async function bridgedNames(client: Lister, expected: readonly string[] = MARKET_TOOLS): Promise<string[]> {
  for (;;) {
    const listed = await names(client);
    if (expected.every((name) => listed.includes(name))) return listed;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
