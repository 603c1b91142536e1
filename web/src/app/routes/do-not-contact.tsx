import { QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { DncPage } from '@/features/do-not-contact/components/dnc-page'
import { createQueryClient } from '@/lib/query-client'

export default function DoNotContactRoute() {
  const [queryClient] = useState(createQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <DncPage />
    </QueryClientProvider>
  )
}
