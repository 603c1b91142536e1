export function App() {
  return (
    <main className="mx-auto flex min-h-screen max-w-3xl flex-col items-center justify-center gap-4 px-6 text-center">
      <h1 className="text-4xl font-bold tracking-tight">Reachflow</h1>
      <p className="text-lg text-slate-600">DM outreach on X and Instagram, on autopilot.</p>
    </main>
  )
}
