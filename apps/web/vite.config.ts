import { join } from 'node:path';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { defaultLangNamespaces } from './default-lang-namespaces.ts';
import { precompressFiles } from './precompress.ts';

// The server (apps/server) answers these paths on port 8080; in `vite` dev mode they are proxied
// there so the browser sees one origin, exactly as when the server serves the built app itself.
const serverOrigin = 'http://127.0.0.1:8080';
const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  ['/api', '/rpc', '/docs', '/healthz'].map((path) => [path, { target: serverOrigin, changeOrigin: true }]),
);
proxy['/ws'] = { target: serverOrigin, changeOrigin: true, ws: true };

/** Paths the service worker never answers nor caches: the API, sockets, chain proxy, console, docs. */
const networkOnly = /^\/(api|ws|rpc|admin|docs|healthz|metrics)(\/|$)/;
/** The lazily loaded module that registers the service worker and shows the connection state. */
const pwaRuntime = 'src/app/pwa/pwa-runtime.tsx';

/**
 * Collects the app shell: the entry chunk with everything it imports statically (the framework,
 * i18n with the default language), their CSS, and the PWA runtime with what it loads. Only these
 * are precached; every other hashed asset is cached when first used (docs/web.md).
 */
function appShell(): { plugin: Plugin; has: (url: string) => boolean } {
  const files = new Set<string>();
  const plugin: Plugin = {
    name: 'nadi-app-shell',
    apply: 'build',
    generateBundle(_options, bundle) {
      files.clear();
      const visit = (fileName: string, isDynamicFollowed: boolean) => {
        const chunk = bundle[fileName];
        if (!chunk || chunk.type !== 'chunk' || files.has(fileName)) return;
        files.add(fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
        for (const imported of chunk.imports) visit(imported, isDynamicFollowed);
        if (isDynamicFollowed) for (const imported of chunk.dynamicImports) visit(imported, false);
      };
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        if (output.isEntry) visit(output.fileName, false);
        if (output.facadeModuleId?.endsWith(pwaRuntime)) visit(output.fileName, true);
      }
    },
  };
  return { plugin, has: (url) => !url.startsWith('assets/') || files.has(url) };
}
const shell = appShell();

/**
 * Brotli and gzip copies of every text file of a staging or production build (precompress.ts):
 * bench:web measured first paint 1.4-1.7 s sooner on a throttled phone (docs/benchmarks.md).
 * Development builds (npm start, the browser suite) skip it: seconds of build time for a local server.
 */
function precompress(): Plugin {
  let isOn = false;
  return {
    name: 'nadi-precompress',
    apply: 'build',
    configResolved(config) {
      isOn = config.mode !== 'development';
    },
    writeBundle(options, bundle) {
      const outDir = options.dir;
      if (isOn && outDir) precompressFiles(Object.keys(bundle).map((fileName) => join(outDir, fileName)));
    },
  };
}

/**
 * The scoped names of the CSS modules' classes: readable in a development build (file, class,
 * hash, for the browser's inspector), a short hash in a staging or production build, where every
 * name is JavaScript a route downloads (build.test.ts budgets).
 */
function cssModuleNames(): Plugin {
  return {
    name: 'nadi-css-module-names',
    config: (_config, { mode }) => ({
      css: { modules: { generateScopedName: mode === 'development' ? '[name]__[local]__[hash:base64:5]' : '_[hash:base64:6]' } },
    }),
  };
}

const shellModules = new RegExp(
  [
    String.raw`apps[\/]web[\/]src[\/]lib[\/](query-client|use-session|session|api-client|langs|storage|invite-code|sign-in-request|sign-out|app-config|when-idle|format|countdown|feature|i18n|user-info|first-visit|notify|app-navigation|wallet-actions|use-lang|use-now)\.tsx?$`,
    String.raw`apps[\/]web[\/]src[\/]lib[\/]wallet[\/]load-wallet\.ts$`,
    String.raw`apps[\/]web[\/]src[\/]components[\/](icon|state-view)\.tsx$`,
    String.raw`apps[\/]web[\/]src[\/]app[\/]features\.ts$`,
    String.raw`packages[\/]api[\/]src[\/](errors|http)\.ts$`,
    'vite[\\/]preload-helper',
  ].join('|'),
);

export default defineConfig({
  plugins: [
    react(),
    defaultLangNamespaces(),
    shell.plugin,
    precompress(),
    cssModuleNames(),
    VitePWA({
      // A new version waits until the user accepts the prompt (src/app/pwa/): reloading under them
      // could drop a form half filled in.
      registerType: 'prompt',
      // Registered from the lazily loaded PWA runtime, never by an inline script (the CSP forbids it).
      injectRegister: false,
      // The icons are precached by globPatterns already; listing them twice would only repeat them.
      includeManifestIcons: false,
      manifest: {
        id: '/',
        name: 'NADI',
        short_name: 'NADI',
        description: 'NADI: mining, node, savings, wallet and trading on your phone.',
        lang: 'zh-Hant',
        theme_color: '#070b12',
        background_color: '#070b12',
        display: 'standalone',
        orientation: 'portrait',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icon-512-maskable.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{html,js,css,svg,png}'],
        manifestTransforms: [async (entries) => ({ manifest: entries.filter((entry) => shell.has(entry.url)), warnings: [] })],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [networkOnly],
        // The first install takes the open page at once, so it works offline without a reload; an
        // update still waits for the prompt (no skipWaiting).
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            // Content-hashed file names: a cached copy is always the right one.
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: {
              cacheName: 'nadi-assets',
              cacheableResponse: { statuses: [200] },
              expiration: { maxEntries: 400, maxAgeSeconds: 60 * 60 * 24 * 60 },
            },
          },
        ],
      },
    }),
  ],
  css: {
    modules: {
      // Every stylesheet but src/app/app.css (the design tokens and primitives) is a CSS module:
      // its classes are renamed per file, so no feature's class can reach another's screen.
      // `styles.tierCard` in code (camelCase keys only: each key is JavaScript a route downloads);
      // `variant(styles, `tier-card--${state}`)` (src/lib/cx.ts) for a modifier chosen at run time.
      localsConvention: 'camelCaseOnly',
    },
  },
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
            { name: 'framework', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/][^\\/]+)[\\/]/ },
            // The app's own small modules that the entry imports and many screens share, one file
            // instead of twenty (each 0.1-3 KB): on a phone's slow network every file of the first
            // screen is a round trip (bench:web). Listed by name: a module here is loaded with the
            // first screen, so nothing that pulls a large library (viem, the contract) belongs here.
            { name: 'shell', test: shellModules },
          ],
        },
      },
    },
  },
});
