import { QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { ActivityPage } from '@/features/activity/components/activity-page'
import { createQueryClient } from '@/lib/query-client'
import { SignedInLayout } from '../layouts/signed-in-layout'

export default function ActivityRoute() {
  const [queryClient] = useState(createQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <SignedInLayout>
        <ActivityPage />
      </SignedInLayout>
    </QueryClientProvider>
  )
}
