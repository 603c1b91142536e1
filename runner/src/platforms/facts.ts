// How adapters read their platform's facts file: regexes are stored as {source, flags} and paths as
// templates with {name} placeholders, so a facts object is plain JSON (an operator-published pack can
// replace it at run time). Pure: no browser or Node dependency.

export interface Pattern {
  source: string
  flags: string
}

export function regexOf(pattern: Pattern): RegExp {
  return new RegExp(pattern.source, pattern.flags)
}

/** The first pattern of the list the text matches (its entry), if any. */
export function firstMatch<T extends { pattern: Pattern }>(list: readonly T[], text: string): T | undefined {
  return list.find((entry) => regexOf(entry.pattern).test(text))
}

/**
 * A path template with its {placeholders} filled in, each value URI-encoded (a value may itself be a
 * query string only where the template says so, with `{name*}`: inserted as given).
 */
export function fillPath(template: string, values: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)(\*?)\}/g, (_, name: string, raw: string) => {
    const value = values[name]
    if (value === undefined) throw new Error(`The path ${template} needs a value for {${name}}`)
    return raw ? value : encodeURIComponent(value)
  })
}

/** A selector inside a shadow host: puppeteer's deep-descendant combinator, which the page waits also read. */
export function within(host: string, selector: string): string {
  return `${host} >>> ${selector}`
}
