// Spintax: {Hi|Hello|Hey} picks one option per message, so many leads do not get the same text.
// Pure TypeScript: the runner spins every DM with it and the web app's message preview spins the
// same way, so what the customer previews is what leads can receive.

/** Picks one option of every {a|b|c} group (groups may nest); braces without "|" stay as they are. */
export function spin(text: string, random: () => number): string {
  let position = 0
  // the options of one group (or of the whole text), and whether its closing brace was found
  const parse = (insideGroup: boolean): { options: string[]; closed: boolean } => {
    const options: string[] = ['']
    const append = (part: string) => {
      options[options.length - 1] += part
    }
    while (position < text.length) {
      const char = text.charAt(position)
      position++
      if (char === '{') {
        const inner = parse(true)
        if (!inner.closed) append(`{${inner.options.join('|')}`)
        else if (inner.options.length > 1)
          append(inner.options[Math.floor(random() * inner.options.length)] ?? '')
        else append(`{${inner.options[0]}}`)
      } else if (insideGroup && char === '}') {
        return { options, closed: true }
      } else if (insideGroup && char === '|') {
        options.push('')
      } else {
        append(char)
      }
    }
    return { options, closed: false }
  }
  return parse(false).options.join('|')
}

/** Whether a text has at least one {a|b} group, i.e. spinning it can change it. */
export function hasSpintax(text: string): boolean {
  return spin(text, () => 0) !== spin(text, () => 0.999999)
}
