#!/usr/bin/env node
// Runs first in every npm script that needs Node 22: one clear sentence instead of a stack trace
// when the pinned Node (the `node` devDependency, installed by its install script) is missing.
const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  process.stderr.write(
    `service-mcp's npm scripts need Node.js 22, and this is ${process.version}: \`npm ci\` installs Node 22 into node_modules/.bin ` +
      `through the \`node\` devDependency's install script, which did not run (for example under --ignore-scripts). ` +
      `Run \`npm rebuild node\` once, or run the scripts with Node.js 22 or later.\n`,
  );
  process.exit(1);
}
