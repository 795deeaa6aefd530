/**
 * npx and `npm exec` do not pass SIGTERM or SIGINT on to the program they start, which would outlive
 * them (serve --http, mock-api) re-parented to init. Under them, and only there, losing the parent
 * counts as being told to stop. (stdio needs none of this: its stdin closes with the parent.)
 */
export function onLauncherGone(stop: () => void, env: NodeJS.ProcessEnv = process.env, intervalMs = 1_000): void {
  if (env.npm_command !== 'exec') return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, intervalMs);
  timer.unref();
}
