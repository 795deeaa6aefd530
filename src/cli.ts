import { VERSION } from './version.js';
process.stdout.write(`${VERSION}\n`);
