// The sandbox's notion of "now": real time plus an offset set through the admin API, so a test
// clock in the runner and the sandbox agree (reply delays, rate-limit windows, TOTP codes).

export class SandboxClock {
  offsetMs = 0

  now(): number {
    return Date.now() + this.offsetMs
  }

  setOffset(offsetMs: number): void {
    this.offsetMs = offsetMs
  }

  advance(ms: number): void {
    this.offsetMs += ms
  }
}
