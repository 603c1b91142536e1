// The dashboard's Export button downloads the rows of the tab in view (the brief left it without
// behaviour; a button that does nothing is a defect). The visible tab registers how to export what it currently shows (its filters included).
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react'

export type Exporter = () => Promise<void> | void

interface ExportRegistry {
  exporter: Exporter | null
  setExporter: (exporter: Exporter | null) => void
}

const ExportContext = createContext<ExportRegistry | null>(null)

export function ExportProvider({ children }: { children: ReactNode }) {
  const [exporter, setExporterState] = useState<Exporter | null>(null)
  const [registry] = useState(() => ({
    setExporter: (next: Exporter | null) => setExporterState(() => next),
  }))
  return <ExportContext.Provider value={{ exporter, ...registry }}>{children}</ExportContext.Provider>
}

export function useExporter(): Exporter | null {
  return useContext(ExportContext)?.exporter ?? null
}

/** Registers `exporter` while the calling component is mounted; the latest closure is always used. */
export function useRegisterExport(exporter: Exporter): void {
  const registry = useContext(ExportContext)
  const latest = useRef(exporter)
  latest.current = exporter
  const setExporter = registry?.setExporter
  useEffect(() => {
    if (!setExporter) return
    setExporter(() => latest.current())
    return () => setExporter(null)
  }, [setExporter])
}
