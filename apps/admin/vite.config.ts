import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';

// The operator console. The server serves its build under /admin (apps/server/src/plugins/web.ts);
// in `vite` dev mode the API is proxied to the server on 8080 so the browser sees one origin.
const serverOrigin = 'http://127.0.0.1:8080';
const proxy: Record<string, ProxyOptions> = Object.fromEntries(['/api', '/rpc'].map((path) => [path, { target: serverOrigin, changeOrigin: true }]));

export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  resolve: {
    // React 19 lives in this workspace's node_modules; hoisted libraries would otherwise resolve the
    // root's older copy, and two Reacts break hooks.
    dedupe: ['react', 'react-dom'],
  },
  server: { host: '127.0.0.1', port: 5174, strictPort: true, proxy },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 3000 },
});
