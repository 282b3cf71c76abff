import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress';

// The dev server proxies API calls to a console started with `npm start` (PORT 8080 by default).
const target = process.env.COLDWATCH_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), precompress()],
  server: { proxy: { '/service': target, '/api': target } },
  // No modulepreload polyfill: every browser the console supports has modulepreload, and the
  // login route's JavaScript has a budget (docs/performance.md, "Page weight").
  build: { outDir: 'dist', chunkSizeWarningLimit: 2000, modulePreload: { polyfill: false } },
});
