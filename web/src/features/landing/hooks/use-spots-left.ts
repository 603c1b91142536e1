import { useEffect, useState } from 'react'
import type { SpotsReading } from '../variants'

/** One step of the spots-left counter: down by one while above the minimum, then it stays. */
export function nextSpots(spots: number, minimum: number): number {
  return spots > minimum ? spots - 1 : spots
}

export function useSpotsLeft({ start, everyMs, minimum }: SpotsReading): number {
  const [spots, setSpots] = useState(start)
  useEffect(() => {
    const timer = setInterval(() => setSpots((current) => nextSpots(current, minimum)), everyMs)
    return () => clearInterval(timer)
  }, [everyMs, minimum])
  return spots
}
