import { createContext, useContext } from 'react'
import type { VariantConfig } from './variants'

export const LandingContext = createContext<VariantConfig | null>(null)

export function useLandingVariant(): VariantConfig {
  const config = useContext(LandingContext)
  if (!config) throw new Error('Landing sections must be rendered inside LandingPage')
  return config
}
