/**
 * Node built-ins that a start does not use, taken at their first use: a static import loads a
 * built-in before the first line runs (node:crypto is 16 modules), and an ESM import of node:util
 * reads every export it has, each loading more (scripts/lazy-builtins.ts does the same for
 * commander's).
 */
export const nodeCrypto = () => process.getBuiltinModule('node:crypto');
export const nodeUtil = () => process.getBuiltinModule('node:util');
