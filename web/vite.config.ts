import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { packagesFor, type SharedPackage } from '../scripts/aliases/list.ts'
import { prerender } from './build/prerender-plugin.ts'

const fromHere = (path: string) => fileURLToPath(new URL(path, import.meta.url))
// Domain rules, API shapes and the database types are shared with the edge functions, so the web
// app imports them by the names of scripts/aliases/list.ts instead of keeping second copies.
const sharedFunctionsDir = fromHere('../supabase/functions/_shared')
const domainDir = fromHere('../supabase/functions/_shared/domain/')

/** Vite's alias for each shared package, as the generated tsconfig paths name them. */
export const packageAliases = (packages: readonly SharedPackage[]) =>
  packages.map((p) => ({
    find: new RegExp(`^${p.name}$`),
    replacement: fromHere(`../${p.entry}`),
  }))

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    prerender([
      { path: '/', file: 'index.html' },
      { path: '/login', file: 'login.html', routeModule: 'src/app/routes/login.tsx' },
    ]),
  ],
  envPrefix: 'VITE_',
  resolve: {
    alias: [
      { find: /^@\/(.*)$/, replacement: `${fromHere('./src')}/$1` },
      ...packageAliases(packagesFor('web')),
      // The app never subscribes to realtime channels; see src/lib/realtime-disabled.ts.
      { find: /^@supabase\/realtime-js$/, replacement: fromHere('./src/lib/realtime-disabled.ts') },
    ],
    // @supabase/auth-ui-react declares React 18 as a dependency; one React instance only.
    dedupe: ['react', 'react-dom'],
  },
  server: { fs: { allow: [fromHere('.'), sharedFunctionsDir] } },
  build: {
    target: 'es2022',
    sourcemap: false,
    // The domain package is pure (docs/architecture.md): what a chunk does not use of it is dropped,
    // so importing it by its one name costs no chunk more than the files it uses.
    rolldownOptions: {
      treeshake: { moduleSideEffects: (id: string) => !id.startsWith(domainDir) },
    },
  },
})
