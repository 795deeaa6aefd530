/** The tool calls of this process running right now: every surface passes through runTool. */
let running = 0;
export const callsInFlight = (): number => running;

export async function counted<T>(work: () => Promise<T>): Promise<T> {
  running++;
  try {
    return await work();
  } finally {
    running--;
  }
}
