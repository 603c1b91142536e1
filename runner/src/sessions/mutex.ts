// One job at a time per account inside this runner: a small FIFO lock with a bounded wait.

export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError'
}

export class Mutex {
  #locked = false
  readonly #waiters: { grant: () => void; timer: ReturnType<typeof setTimeout> | undefined }[] = []

  get locked(): boolean {
    return this.#locked
  }

  get waiting(): number {
    return this.#waiters.length
  }

  /** Resolves with a release function once the lock is ours; rejects after waitMs. */
  acquire(waitMs: number): Promise<() => void> {
    if (!this.#locked) {
      this.#locked = true
      return Promise.resolve(this.#releaser())
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => resolve(this.#releaser()),
        timer: undefined as ReturnType<typeof setTimeout> | undefined,
      }
      waiter.timer = setTimeout(() => {
        const index = this.#waiters.indexOf(waiter)
        if (index >= 0) this.#waiters.splice(index, 1)
        reject(new WaitTimeoutError(`Still busy after ${Math.round(waitMs / 1000)} s`))
      }, waitMs)
      this.#waiters.push(waiter)
    })
  }

  #releaser(): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.#waiters.shift()
      if (next) {
        clearTimeout(next.timer)
        next.grant()
      } else {
        this.#locked = false
      }
    }
  }
}
