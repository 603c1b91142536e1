import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// findBy*/waitFor wait for a condition; Testing Library's default of 1 s is shorter than one render
// of a whole page in jsdom on a loaded 2-vCPU machine (x-official-connect failed that way under
// load). A passing test returns as soon as its condition holds, so only a failing one waits longer.
configure({ asyncUtilTimeout: 10_000 })

afterEach(() => {
  cleanup()
  localStorage.clear()
  sessionStorage.clear()
})
