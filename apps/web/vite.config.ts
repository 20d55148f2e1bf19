import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { firstRouteChunks } from './build/first-route-chunks';
import { inlineBoot } from './build/inline-boot';
import { posApiDocs } from './build/pos-api-docs';
import { precompress } from './build/precompress';
import { routePreload } from './build/route-preload';

// The API the dev server (and `vite preview`) forwards to: API_URL, else the server's own PORT on this machine,
// so `PORT=4000 npm run dev` beside `PORT=4000 npm run dev -w @loyalty/web` works as the default pair does.
const backend = process.env.API_URL || `http://127.0.0.1:${process.env.PORT || 3000}`;
// Everything the server answers itself; the rest is the console (client-side routes).
const proxied = ['/api', '/auth', '/pos', '/docs', '/openapi.json', '/swagger.html', '/swagger-init.js'];

const chunks = firstRouteChunks();

export default defineConfig({
  // precompress last: it compresses everything the others wrote.
  plugins: [inlineBoot(), react(), tailwindcss(), posApiDocs(), chunks.plugin, routePreload(), precompress()],
  resolve: { tsconfigPaths: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Route chunks come from React.lazy; the report shows their gzip sizes.
    reportCompressedSize: true,
    chunkSizeWarningLimit: 400,
    rolldownOptions: { output: { codeSplitting: { groups: chunks.groups } } },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: backend, changeOrigin: false }])),
  },
  preview: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: backend, changeOrigin: false }])),
  },
});
