// A counting semaphore whose size can change while it is held: the admission controller lowers it
// under load (holders keep their slot; nobody new gets one until the count is under the limit) and
// raises it when the machine is calm. Waiters are served by priority, then first come, first served:
// sends come before reads, so a burst of inbox syncs never takes the slots the campaign ticks wait for.

/** Campaign sends: served before every other admitted job and sign-in (reads, scrapes, warm-up). */
export const SEND_PRIORITY = 1

export class GateWaitTimeoutError extends Error {
  override name = 'GateWaitTimeoutError'
}

interface Waiter {
  priority: number
  grant: (release: () => void) => void
  fail: (error: unknown) => void
}

export class Gate {
  #limit: number
  #active = 0
  readonly #waiters: Waiter[] = []

  constructor(limit: number) {
    this.#limit = Math.max(1, limit)
  }

  get limit(): number {
    return this.#limit
  }

  get active(): number {
    return this.#active
  }

  get waiting(): number {
    return this.#waiters.length
  }

  /** How many waiters have a priority above `priority`. */
  waitingAbove(priority: number): number {
    return this.#waiters.filter((w) => w.priority > priority).length
  }

  setLimit(limit: number): void {
    this.#limit = Math.max(1, limit)
    this.#admit()
  }

  /**
   * A slot (call the returned function to give it back), or a GateWaitTimeoutError after waitMs.
   * A waiter of a higher priority is served before every waiter of a lower one.
   */
  acquire(waitMs: number, signal?: AbortSignal, priority = 0): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const onAbort = () => drop(signal?.reason)
      const waiter: Waiter = {
        priority,
        grant: (release) => {
          clearTimeout(timer)
          signal?.removeEventListener('abort', onAbort)
          resolve(release)
        },
        fail: reject,
      }
      const drop = (error: unknown) => {
        const index = this.#waiters.indexOf(waiter)
        if (index < 0) return
        this.#waiters.splice(index, 1)
        signal?.removeEventListener('abort', onAbort)
        clearTimeout(timer)
        reject(error)
      }
      const after = this.#waiters.findIndex((w) => w.priority < priority)
      this.#waiters.splice(after < 0 ? this.#waiters.length : after, 0, waiter)
      timer = setTimeout(() => drop(new GateWaitTimeoutError(`No slot within ${waitMs / 1000} s`)), waitMs)
      signal?.addEventListener('abort', onAbort, { once: true })
      this.#admit()
    })
  }

  #admit(): void {
    while (this.#active < this.#limit && this.#waiters.length > 0) {
      const waiter = this.#waiters.shift() as Waiter
      this.#active += 1
      let released = false
      waiter.grant(() => {
        if (released) return
        released = true
        this.#active -= 1
        this.#admit()
      })
    }
  }
}
