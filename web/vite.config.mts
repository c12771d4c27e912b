import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * The dashboard, served by the service under /app/ from dist/web (src/platform/http/dashboard.ts).
 * Pages are split by route (React.lazy / route `lazy`), so the login page loads only its own code.
 */
export default defineConfig({
  root: webRoot,
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // The CSP has no 'unsafe-inline' for scripts: keep everything in files.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1200,
  },
  server: {
    // `npm run dev:web` proxies the API to a service on :8080 (same origin for the cookie).
    proxy: Object.fromEntries(
      ['/auth', '/users', '/projects', '/contacts', '/templates', '/domains', '/segments', '/campaigns', '/workflows', '/events', '/activity', '/analytics', '/config', '/uploads', '/v1'].map((p) => [p, 'http://127.0.0.1:8080']),
    ),
  },
  test: {
    root: webRoot,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
