/**
 * The user's cache directory for this package, as each platform places one: $XDG_CACHE_HOME when
 * set (anywhere: it is how a user, or a test, moves it), else ~/Library/Caches on macOS,
 * %LOCALAPPDATA% on Windows, ~/.cache elsewhere. Undefined when there is no home to put it in.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export function userCacheDir(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: () => string = homedir,
): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, name);
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, name, 'Cache');
  const dir = home();
  if (!dir) return undefined;
  return platform === 'darwin' ? join(dir, 'Library', 'Caches', name) : join(dir, '.cache', name);
}
