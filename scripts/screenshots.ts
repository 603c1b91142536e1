// Full-page screenshots of the public pages at desktop and phone widths, for review and docs.
// Usage: WEB_URL=http://127.0.0.1:54323 OUT_DIR=docs/screenshots npx tsx scripts/screenshots.ts [path ...]
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'

const webUrl = process.env.WEB_URL ?? 'http://127.0.0.1:54323'
const outDir = process.env.OUT_DIR ?? 'docs/screenshots'
const widths = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
]
const pages =
  process.argv.slice(2).length > 0
    ? process.argv.slice(2)
    : ['/', '/fb-offer', '/login', '/login?checkout=true', '/reset-password', '/cancel', '/success']

const slug = (path: string) =>
  path === '/' ? 'landing' : path.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '-')

async function main() {
  mkdirSync(outDir, { recursive: true })
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
    ],
  })
  try {
    for (const size of widths) {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } })
      const page = await context.newPage()
      for (const path of pages) {
        await page.goto(new URL(path, webUrl).toString(), { waitUntil: 'networkidle' })
        await page.waitForTimeout(300)
        const file = join(outDir, `${slug(path)}-${size.name}.png`)
        await page.screenshot({ path: file, fullPage: true })
        console.log(file)
      }
      await context.close()
    }
  } finally {
    await browser.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
