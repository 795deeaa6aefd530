/**
 * The installed project's global setup: one `npm pack` (whose prepack builds dist/) before any
 * file runs, its tarball handed to every file (`inject('tarball')`). Each file used to pack on its
 * own: two builds of dist/ side by side, while the other file read it.
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { packTarball } from './prepare.js';

declare module 'vitest' {
  export interface ProvidedContext {
    tarball: string;
  }
}

export default function setup(project: TestProject): () => void {
  const { work, tarball } = packTarball();
  project.provide('tarball', tarball);
  return () => rmSync(work, { recursive: true, force: true });
}
