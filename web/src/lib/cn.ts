/** Joins class names, skipping the falsy ones (conditional classes read as `cond && 'class'`). */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(' ')
}
