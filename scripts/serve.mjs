#!/usr/bin/env node
// `npm run serve` and the Docker image: the compiled console (server/dist/main.js, `npm run
// build`) as production runs it, with its heap limit (HEAP_MB, start.mjs heapFlags), forwarding signals.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runConsole } from './start.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
runConsole(['--enable-source-maps', path.join(root, 'server/dist/main.js')], { ...process.env });
