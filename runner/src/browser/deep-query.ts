/// <reference lib="dom" />
// Finding elements inside open shadow roots in one in-page call. puppeteer's `>>>` works too, but
// its `$$eval` walks the tree and hands elements back one protocol round trip at a time: reading a
// thread that way cost 50-150 ms a call on X Chat, several times per send. Here the page collects
// its shadow roots once and answers the whole question in a single evaluate.
//
// Selectors: a comma-separated list of alternatives; in each, `a >>> b` is puppeteer's deep
// descendant (b anywhere below a, across shadow boundaries), and a plain selector matches in the
// document and in every open shadow root (as `pierce/` does).
//
// The in-page code is source text: the runner runs under tsx, whose transform wraps named inner
// functions in a `__name` helper that does not exist in the page.
import type { ElementHandle, Page } from 'puppeteer-core'

/** In-page: `deepAll(selector)` → elements, `deepText(element)` → its text with its shadow trees'. */
export const DEEP_QUERY_JS = `
function shadowRoots() {
  var roots = [document]
  for (var i = 0; i < roots.length; i++) {
    var all = roots[i].querySelectorAll('*')
    for (var j = 0; j < all.length; j++) if (all[j].shadowRoot) roots.push(all[j].shadowRoot)
  }
  return roots
}
function splitList(selector) {
  var parts = [], depth = 0, quote = '', current = ''
  for (var i = 0; i < selector.length; i++) {
    var c = selector[i]
    if (quote) { if (c === quote) quote = '' }
    else if (c === '"' || c === "'") quote = c
    else if (c === '[' || c === '(') depth++
    else if (c === ']' || c === ')') depth--
    else if (c === ',' && depth === 0) { parts.push(current); current = ''; continue }
    current += c
  }
  parts.push(current)
  return parts.map(function (p) { return p.trim() }).filter(Boolean)
}
function composedParent(node) {
  var parent = node.parentNode
  return parent instanceof ShadowRoot ? parent.host : parent
}
function deepAll(selector) {
  var roots = shadowRoots()
  var found = []
  var seen = new Set()
  splitList(selector).forEach(function (alternative) {
    var steps = alternative.split('>>>').map(function (s) { return s.trim() }).filter(Boolean)
    var current = null
    steps.forEach(function (step) {
      var next = new Set()
      roots.forEach(function (root) {
        root.querySelectorAll(step).forEach(function (el) {
          if (!current) { next.add(el); return }
          for (var node = composedParent(el); node; node = composedParent(node))
            if (current.has(node)) { next.add(el); return }
        })
      })
      current = next
    })
    if (current) current.forEach(function (el) { if (!seen.has(el)) { seen.add(el); found.push(el) } })
  })
  return found
}
function deepText(el) {
  var texts = [el.innerText || '']
  var hosts = [el].concat(Array.from(el.querySelectorAll('*'))).filter(function (e) { return e.shadowRoot })
  hosts.forEach(function (host) {
    Array.from(host.shadowRoot.children).forEach(function (child) { texts.push(deepText(child)) })
  })
  return texts.join('\\n')
}
`

/**
 * `fn(elements, arg)` run in the page over the deep matches of the selector, in one call. `fn` must
 * be self-contained (it is sent as source) and define no named functions inside.
 */
export async function deepEval<A, R>(
  page: Page,
  selector: string,
  fn: (elements: Element[], arg: A) => R,
  arg: A,
): Promise<Awaited<R>> {
  const source = `(function () { ${DEEP_QUERY_JS}
    return (${fn.toString()})(deepAll(${JSON.stringify(selector)}), ${JSON.stringify(arg ?? null)}) })()`
  return (await page.evaluate(source)) as Awaited<R>
}

/** The first deep match as an element handle (to type into or click), or null. */
export async function deepElement(page: Page, selector: string): Promise<ElementHandle | null> {
  const handle = await page.evaluateHandle(
    `(function () { ${DEEP_QUERY_JS} return deepAll(${JSON.stringify(selector)})[0] || null })()`,
  )
  const element = handle.asElement() as ElementHandle | null
  if (!element) await handle.dispose()
  return element
}

/** Every deep match as element handles. */
export async function deepElements(page: Page, selector: string): Promise<ElementHandle[]> {
  const count = await deepEval(page, selector, (elements) => elements.length, null)
  const handles: ElementHandle[] = []
  for (let i = 0; i < count; i++) {
    const handle = await page.evaluateHandle(
      `(function () { ${DEEP_QUERY_JS} return deepAll(${JSON.stringify(selector)})[${i}] || null })()`,
    )
    const element = handle.asElement() as ElementHandle | null
    if (element) handles.push(element)
    else await handle.dispose()
  }
  return handles
}
