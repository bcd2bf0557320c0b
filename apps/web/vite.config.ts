import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';

// The server (apps/server) answers these paths on port 8080; in `vite` dev mode they are proxied
// there so the browser sees one origin, exactly as when the server serves the built app itself.
const serverOrigin = 'http://127.0.0.1:8080';
const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  ['/api', '/rpc', '/docs', '/healthz'].map((path) => [path, { target: serverOrigin, changeOrigin: true }]),
);
proxy['/ws'] = { target: serverOrigin, changeOrigin: true, ws: true };

export default defineConfig({
  plugins: [react()],
  resolve: {
    // React 19 lives in apps/web/node_modules while the hoisted libraries at the root would
    // otherwise resolve the root's older copy; two Reacts break hooks, so force one.
    dedupe: ['react', 'react-dom'],
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true, proxy },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, proxy },
  build: {
    target: 'es2022',
    // build.test.ts reads the manifest to measure the home route's initial JavaScript.
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The framework every screen needs, in one long-cached file instead of a dozen small ones.
          // Only these packages: a broader group would drag lazily loaded code (wagmi) into it.
          groups: [
            { name: 'framework', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/][^\\/]+|i18next|react-i18next)[\\/]/ },
          ],
        },
      },
    },
  },
});
