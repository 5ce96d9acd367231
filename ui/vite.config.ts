// Builds Muster's web UI into ui/dist, which `muster server start` serves at / (the built files are
// committed so that a clone runs without a build step; CI rebuilds them and fails on a difference).
// `npm run ui:dev` serves the sources with the API proxied to a server on 127.0.0.1:8000.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Hashed names only, no source maps: the committed build stays small and byte-stable.
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    // src/app/ui-shapes.ts only re-exports: a page takes the shapes it names, not all of them.
    rollupOptions: { treeshake: { moduleSideEffects: (id: string) => !id.endsWith('/src/app/ui-shapes.ts') } },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:8000' },
  },
});
