/**
 * Build of the cataloguing web client: client/ -> dist/client (index.html + hashed assets/),
 * served by the work server at WORK_UI_PATH. Relative asset URLs (`base: './'`) keep the build
 * valid under any WORK_UI_PATH. `npm run dev:client` proxies the API to a running work server.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  build: {
    outDir: fileURLToPath(new URL('../dist/client', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: true,
  },
  server: {
    proxy: { '/dedalo': process.env.WORK_API_ORIGIN ?? 'http://127.0.0.1:3000' },
  },
});
