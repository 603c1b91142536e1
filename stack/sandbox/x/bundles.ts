// The scripts x.com pages load, built per web release: main.<hash>.js (the app, with the release's
// GraphQL query ids and transaction salt written into it, as X's bundle carries them) and
// xchat.<hash>.js (X Chat). A site-change drill renames test ids in both. Served immutable under
// content hashes; the last few builds stay available so a page opened before a release keeps
// loading its scripts (its GraphQL calls then fail, as on x.com).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import type { Release } from './release.ts'

const MAIN_SOURCE = readFileSync(new URL('./web/main.js', import.meta.url), 'utf8')
// X Chat's bundle is one file on x.com; its source is three here, for size
const CHAT_SOURCE = ['xchat-core.js', 'xchat-inbox.js', 'xchat-conversation.js']
  .map((file) => readFileSync(new URL(`./web/${file}`, import.meta.url), 'utf8'))
  .join('\n')
const BUNDLE_DIR = '/responsive-web/client-web/'
const KEPT_BUILDS = 12

export interface Build {
  mainPath: string
}

export class Bundles {
  readonly #served = new Map<string, string>()
  readonly #builds = new Map<string, Build>()

  /** The main bundle's path for this release and these renamed test ids (built once). */
  build(release: Release, renames: Record<string, string>): Build {
    const key = `${release.id}:${JSON.stringify(renames)}`
    const built = this.#builds.get(key)
    if (built) return built
    const chat = wrap(`const BUILD = ${JSON.stringify({ renames })};`, CHAT_SOURCE)
    const chatPath = this.#serve('xchat', chat)
    const operations = Object.entries(release.queryIds)
      .map(([name, id]) => `{queryId:"${id}",operationName:"${name}",operationType:"query"}`)
      .join(',')
    const mask = release.salt[0] ?? 0
    const masked = [...release.salt].map((b, i) => b ^ ((mask + i * 7) & 255))
    const header = `const BUILD = {operations:[${operations}],salt:[${JSON.stringify(masked)},${mask}],chatBundle:${JSON.stringify(chatPath)},renames:${JSON.stringify(renames)}};`
    const build = { mainPath: this.#serve('main', wrap(header, MAIN_SOURCE)) }
    this.#builds.set(key, build)
    if (this.#builds.size > KEPT_BUILDS) this.#builds.delete(this.#builds.keys().next().value ?? '')
    return build
  }

  #serve(name: string, source: string): string {
    const path = `${BUNDLE_DIR}${name}.${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`
    this.#served.delete(path)
    this.#served.set(path, source)
    while (this.#served.size > KEPT_BUILDS * 2) {
      const oldest = this.#served.keys().next().value
      if (oldest === undefined) break
      this.#served.delete(oldest)
    }
    return path
  }

  /** Answers a bundle request; false when the path is not a bundle this sandbox built. */
  answer(path: string, res: ServerResponse): boolean {
    const source = this.#served.get(path)
    if (source === undefined) return false
    res.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
    })
    res.end(source)
    return true
  }
}

function wrap(header: string, body: string): string {
  return `;(() => {\n${header}\n${body}\n})()\n`
}
