import { useEffect, useState } from 'react'

/** product.md §9: the countdown starts at 23:59:59, ticks each second and wraps back to 23:59:59. */
export const COUNTDOWN_START_SECONDS = 23 * 3600 + 59 * 60 + 59

export function nextCountdown(seconds: number): number {
  return seconds <= 0 ? COUNTDOWN_START_SECONDS : seconds - 1
}

export function formatCountdown(seconds: number): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`
}

export function useCountdown(): number {
  const [seconds, setSeconds] = useState(COUNTDOWN_START_SECONDS)
  useEffect(() => {
    const timer = setInterval(() => setSeconds(nextCountdown), 1000)
    return () => clearInterval(timer)
  }, [])
  return seconds
}
