// The adapters know a site only through their facts: a published pack can fix a site change only if
// every selector, path, cookie and header name the adapter relies on is in the facts object. This
// reads the adapters' sources (everything beside facts.ts) for the literals that are facts in
// disguise: a selector, a site path, a cookie looked up by name, a request header's name.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = new URL('../src/platforms/', import.meta.url).pathname

/**
 * The string literals of a TypeScript source, template parts included; comments (which may name what
 * they explain) and regex literals are skipped. A small scanner: the project's TypeScript has no JS API.
 */
export function literals(source: string): string[] {
  const found: string[] = []
  let i = 0
  /** Reads a quoted string from its opening quote; returns its text. */
  const quoted = (quote: string): string => {
    let text = ''
    for (i++; i < source.length && source[i] !== quote; i++) {
      if (source[i] === '\\') i++
      text += source[i]
    }
    i++
    return text
  }
  const template = (): void => {
    let text = ''
    for (i++; i < source.length && source[i] !== '`'; i++) {
      if (source[i] === '\\') {
        text += source[++i]
      } else if (source[i] === '$' && source[i + 1] === '{') {
        found.push(text)
        text = ''
        i += 2
        code(true)
        i--
      } else text += source[i]
    }
    found.push(text)
    i++
  }
  const skipRegex = (): void => {
    let inClass = false
    for (i++; i < source.length; i++) {
      const c = source[i]
      if (c === '\\') i++
      else if (c === '[') inClass = true
      else if (c === ']') inClass = false
      else if (c === '/' && !inClass) break
    }
    for (i++; /[a-z]/.test(source[i] ?? ''); i++);
  }
  /** Code up to the end (or, in a template's ${…}, its closing brace). */
  const code = (inTemplate: boolean): void => {
    let depth = 0
    let before = ''
    while (i < source.length) {
      const c = source[i] ?? ''
      const next = source[i + 1]
      if (c === '/' && next === '/') i = source.indexOf('\n', i) < 0 ? source.length : source.indexOf('\n', i)
      else if (c === '/' && next === '*') i = source.indexOf('*/', i + 2) + 2
      else if (c === "'" || c === '"') {
        found.push(quoted(c))
        before = 'a'
      } else if (c === '`') {
        template()
        before = 'a'
      } else if (c === '/' && /^$|[(,=:[!&|?{};+*%<>~^-]$|\b(return|typeof|case|of|in)$/.test(before)) {
        skipRegex()
        before = 'a'
      } else {
        if (c === '{') depth++
        if (c === '}') {
          if (inTemplate && depth === 0) {
            i++
            return
          }
          depth--
        }
        if (!/\s/.test(c)) before = /\w/.test(c) ? (/\w$/.test(before) ? before + c : c) : c
        i++
      }
    }
  }
  code(false)
  return found
}

const DISGUISED: [string, RegExp][] = [
  ['a selector', /\[(data-[\w-]+|role|aria-[\w-]+|type|name|href|id)\s*[\]=^$*~|]|^#[a-zA-Z][\w-]*$/],
  ['a site path', /^\/(i|api|direct|accounts|home|messages|search|challenge)\b/],
  ['a request header', /^x-[a-z-]+$/],
]

function findings(platform: 'x' | 'instagram'): string[] {
  const dir = join(root, platform)
  const found: string[] = []
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'facts.ts')) {
    const source = readFileSync(join(dir, file), 'utf8')
    for (const literal of literals(source)) {
      for (const [what, pattern] of DISGUISED)
        if (pattern.test(literal)) found.push(`${platform}/${file}: ${what} '${literal}'`)
    }
    // a cookie looked up by a name of its own, or read off document.cookie with a regex literal
    for (const m of source.matchAll(/\.name === ['"`]([^'"`]+)|\/\(\?:\^\|; \)([a-z_]+)=/g))
      found.push(`${platform}/${file}: the cookie '${m[1] ?? m[2]}'`)
  }
  return found
}

describe('adapters read their platform only from the facts', () => {
  it('the X adapter has no selector, path, cookie or header name of its own', () => {
    expect(findings('x')).toEqual([])
  })

  it('the Instagram adapter has none either', () => {
    expect(findings('instagram')).toEqual([])
  })

  it('finds them when they are there (the check itself can fail)', () => {
    const source = [
      "// a comment may say '/i/chat'",
      `const a = "[data-testid='dm-inbox-panel']", b = /it's \\/ '[x]'/i.test(a) ? '/i/chat' : "n't"`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text the scanner reads
      'const c = { [`${a}`]: `x-${b}`, ok: `${`[role=${a}]`}`, h: `x-ig-app-id` }',
    ].join('\n')
    expect(literals(source)).not.toContain("it's \\/ ")
    expect(literals(source).join(' ')).not.toContain('a comment')
    expect(literals(source).filter((l) => DISGUISED.some(([, p]) => p.test(l)))).toEqual([
      "[data-testid='dm-inbox-panel']",
      '/i/chat',
      '[role=',
      'x-ig-app-id',
    ])
  })
})
