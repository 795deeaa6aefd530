/**
 * A tool bridged from the hosted surface: the bridge labels every one's description so
 * (src/hosted/admit.ts, docs/tools.md), which no tool of ours is.
 */
export const isBridged = (tool) => tool.description?.startsWith("Deployment's words:") === true;
