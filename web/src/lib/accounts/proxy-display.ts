/** A proxy as the customer may see it back: host and port, never its login. */
export function proxyDisplay(proxy: string | null | undefined): string | null {
  const text = proxy?.trim()
  if (!text) return null
  const withoutScheme = text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
  const colonForm = /^([A-Za-z0-9.-]+):(\d{1,5}):[^:@\s]+:.+$/.exec(withoutScheme)
  if (colonForm) return `${colonForm[1]}:${colonForm[2]}`
  return withoutScheme.slice(withoutScheme.lastIndexOf('@') + 1)
}
