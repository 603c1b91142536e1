// A counting semaphore whose size can change while it is held: the admission controller lowers it
// under load (holders keep their slot; nobody new gets one until the count is under the limit) and
// raises it when the machine is calm. Waiters are served first come, first served.

export class GateWaitTimeoutError extends Error {
  override name = 'GateWaitTimeoutError'
}

interface Waiter {
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

  setLimit(limit: number): void {
    this.#limit = Math.max(1, limit)
    this.#admit()
  }

  /** A slot (call the returned function to give it back), or a GateWaitTimeoutError after waitMs. */
  acquire(waitMs: number, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const onAbort = () => drop(signal?.reason)
      const waiter: Waiter = {
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
      this.#waiters.push(waiter)
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
