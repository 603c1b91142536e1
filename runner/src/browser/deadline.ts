// A hard time limit for one adapter operation: the caller gets an OperationTimeoutError at the
// deadline even if the page never answers; `onTimeout` discards what hung (the page).
import { OperationTimeoutError } from '../platforms/types.ts'
import { NavigationTimeoutError } from './navigate.ts'

/** A page or operation that ran out of time: the machine or the network was slow, the site said nothing. */
export function outOfTime(error: unknown): boolean {
  return error instanceof NavigationTimeoutError || error instanceof OperationTimeoutError
}

export async function withDeadline<T>(
  operation: string,
  ms: number,
  work: () => Promise<T>,
  onTimeout: () => void,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout()
      reject(new OperationTimeoutError(operation, ms))
    }, ms)
  })
  try {
    return await Promise.race([work(), deadline])
  } finally {
    clearTimeout(timer)
  }
}
