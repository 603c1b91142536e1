// Prerenders the public pages a visitor usually lands on (/ and /login) into the built HTML, so
// the first paint needs no JavaScript; src/main.tsx hydrates the markup. Also teaches `vite preview`
// which HTML file serves which address: the prerendered pages their own, every other route the
// plain shell (app.html), so /dashboard never flashes the landing page.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Plugin, type ResolvedConfig, type Rollup } from 'vite'
import { HYDRATED_EVENT } from '../src/app/hydrated-event.ts'

export interface PrerenderPage {
  /** The address, e.g. /login. */
  path: string
  /** The HTML file that serves it, relative to the output directory. */
  file: string
  /** The lazy route module the page needs before it can hydrate: preloaded alongside the entry. */
  routeModule?: string
}

interface PrerenderEntry {
  render(path: string): Promise<string>
  sessionStorageKey: string
}

/** The file name every route without its own prerendered page is served from. */
export const SHELL_FILE = 'app.html'

/** Each chunk `name` imports statically, transitively, itself included. */
function staticClosure(bundle: Rollup.OutputBundle, name: string, seen = new Set<string>()): Set<string> {
  const chunk = bundle[name]
  if (chunk?.type !== 'chunk' || seen.has(name)) return seen
  seen.add(name)
  for (const imported of chunk.imports) staticClosure(bundle, imported, seen)
  return seen
}

/**
 * Runs before the page's module script: drops the prerendered markup when it does not fit this
 * visit (another address, a query such as ?checkout=true, an OAuth return, a stored session), so
 * the visitor never sees the wrong page; main.tsx then renders from scratch.
 */
const fitCheckScript = (storageKey: string) =>
  `<script>(function(){var r=document.getElementById('root'),l=location,s;try{s=localStorage.getItem(${JSON.stringify(storageKey)})}catch(e){s=1}if(l.pathname!==r.dataset.prerendered||l.search||/access_token=|error_description=/.test(l.hash)||s){r.removeAttribute('data-prerendered');r.replaceChildren()}})()</script>`

/**
 * A prerendered page paints from its HTML alone, so its code is fetched only after the first paint
 * (the frame after the markup is parsed): on a slow connection the 120 KB of hydration code no
 * longer shares the bandwidth with the document the visitor is waiting to see. The entry script
 * and the module preloads move from the head into a loader at the end of the body; a page whose
 * markup the fit check dropped (nothing painted to wait for) loads at once, and a tab in the
 * background (no animation frames) after 100 ms, and at once when the visitor reaches for the page
 * (pointer, touch, key or focus). A button clicked before the page is live is held, not lost: the
 * click is stopped and replayed when the app announces hydration (HYDRATED_EVENT, src/app/App.tsx).
 * The login form's submit buttons are also disabled until then, so nothing submits natively.
 */
function loadAfterFirstPaint(html: string, routePreloads: string[]): string {
  const entry = /<script type="module" crossorigin src="(\/[^"]+)"><\/script>\s*/.exec(html)
  if (!entry?.[1]) throw new Error('prerender: no entry script in the shell')
  const preloadTag = /<link rel="modulepreload" crossorigin href="(\/[^"]+)">\s*/g
  const preloads = [...html.matchAll(preloadTag)].map((m) => m[1] as string)
  const files = [...preloads, ...routePreloads.map((file) => `/${file}`)]
  const loader =
    `<script>(function(){var done=0,held=[];function go(){if(done)return;done=1;var h=document.head;` +
    `${JSON.stringify(files)}.forEach(function(f){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=f;h.appendChild(l)});` +
    `var s=document.createElement('script');s.type='module';s.crossOrigin='';s.src=${JSON.stringify(entry[1])};h.appendChild(s)}` +
    `if(!document.getElementById('root').hasAttribute('data-prerendered'))return go();` +
    `function hold(e){var b=e.target.closest&&e.target.closest('button');if(!b)return;e.preventDefault();e.stopPropagation();if(held.indexOf(b)<0)held.push(b);go()}` +
    `document.addEventListener('click',hold,true);` +
    `['pointerdown','touchstart','keydown','focusin'].forEach(function(t){document.addEventListener(t,go,{capture:true,passive:true})});` +
    `addEventListener(${JSON.stringify(HYDRATED_EVENT)},function(){document.removeEventListener('click',hold,true);` +
    `held.forEach(function(b){if(b.isConnected&&!b.disabled)b.click()})},{once:true});` +
    `requestAnimationFrame(function(){setTimeout(go,0)});setTimeout(go,100)})()</script>`
  return html
    .replace(entry[0], '')
    .replace(preloadTag, '')
    .replace('</body>', () => `${loader}</body>`)
}

function prerenderAtBuild(pages: PrerenderPage[]): Plugin {
  let config: ResolvedConfig
  const preloads = new Map<string, string[]>()
  return {
    name: 'reachflow:prerender',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved
    },
    writeBundle(_options, bundle) {
      const entry = Object.values(bundle).find(
        (c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/index.html'),
      )
      const shellLoads = entry ? staticClosure(bundle, entry.fileName) : new Set<string>()
      for (const page of pages) {
        if (!page.routeModule) continue
        const route = Object.values(bundle).find(
          (c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(page.routeModule as string),
        )
        if (!route) throw new Error(`prerender: no chunk for ${page.routeModule}`)
        preloads.set(
          page.path,
          [...staticClosure(bundle, route.fileName)].filter((f) => !shellLoads.has(f)),
        )
      }
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir)
      const ssrOutDir = join(config.root, 'node_modules', '.reachflow-prerender')
      await build({
        configFile: config.configFile,
        root: config.root,
        mode: config.mode,
        logLevel: 'warn',
        build: {
          ssr: 'src/prerender.tsx',
          outDir: ssrOutDir,
          emptyOutDir: true,
          copyPublicDir: false,
          rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
        },
      })
      const entry = (await import(pathToFileURL(join(ssrOutDir, 'prerender.mjs')).href)) as PrerenderEntry
      const shell = readFileSync(join(outDir, 'index.html'), 'utf8')
      writeFileSync(join(outDir, SHELL_FILE), shell)
      // The stylesheet is small (~10 KB gzip): inlined, it costs the first paint no extra request.
      const stylesheet = /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/.exec(shell)
      for (const page of pages) {
        const markup = await entry.render(page.path)
        let html = shell.replace(
          '<div id="root"></div>',
          `<div id="root" data-prerendered="${page.path}">${markup}</div>${fitCheckScript(entry.sessionStorageKey)}`,
        )
        if (stylesheet?.[1]) {
          const css = readFileSync(join(outDir, stylesheet[1]), 'utf8')
          html = html.replace(stylesheet[0], () => `<style>${css}</style>`)
        }
        html = loadAfterFirstPaint(html, preloads.get(page.path) ?? [])
        writeFileSync(join(outDir, page.file), html)
      }
      rmSync(ssrOutDir, { recursive: true, force: true })
    },
  }
}

/** `vite preview`: routes without a prerendered page get the plain shell, not the landing page. */
function previewRoutes(): Plugin {
  return {
    name: 'reachflow:preview-routes',
    apply: (_config, env) => env.isPreview === true,
    configurePreviewServer(server) {
      const outDir = resolve(server.config.root, server.config.build.outDir)
      server.middlewares.use((req, _res, next) => {
        const accepts = req.headers.accept ?? ''
        if ((req.method === 'GET' || req.method === 'HEAD') && accepts.includes('text/html')) {
          let path = '/'
          try {
            path = decodeURIComponent(new URL(req.url ?? '/', 'http://preview.invalid').pathname)
          } catch {
            return next()
          }
          const hasOwnFile = existsSync(join(outDir, path)) || existsSync(join(outDir, `${path}.html`))
          if (path !== '/' && !hasOwnFile && existsSync(join(outDir, SHELL_FILE))) req.url = `/${SHELL_FILE}`
        }
        next()
      })
    },
  }
}

export const prerender = (pages: PrerenderPage[]): Plugin[] => [prerenderAtBuild(pages), previewRoutes()]
