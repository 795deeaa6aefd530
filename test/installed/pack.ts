/**
 * The installed project's global setup: one `npm pack`, of a copy of the tree with no build (so its
 * prepack builds dist/, as on a fresh clone), before any file runs; what it packed is handed to
 * every file (`inject('packed')`). Each file used to pack on its own, and package.test.ts (then
 * among the end-to-end tests) twice: builds of dist/ side by side with the files that ran it.
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { packFreshCopy, type Packed } from './prepare.js';

declare module 'vitest' {
  export interface ProvidedContext {
    packed: Packed;
  }
}

export default function setup(project: TestProject): () => void {
  const { work, packed } = packFreshCopy();
  project.provide('packed', packed);
  return () => rmSync(work, { recursive: true, force: true });
}
