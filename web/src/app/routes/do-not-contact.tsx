import { QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { DncPage } from '@/features/do-not-contact/components/dnc-page'
import { createQueryClient } from '@/lib/query-client'
import { RoleGate } from '../guards/role-gate'
import { SignedInLayout } from '../layouts/signed-in-layout'

export default function DoNotContactRoute() {
  const [queryClient] = useState(createQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <SignedInLayout>
        <RoleGate ability="readWorkspace">
          <DncPage />
        </RoleGate>
      </SignedInLayout>
    </QueryClientProvider>
  )
}
