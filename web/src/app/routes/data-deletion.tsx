import { CenteredCardLayout } from '@/components/layouts/centered-card-layout'
import { DataDeletionStatus } from '@/features/data-deletion/components/data-deletion-status'

export default function DataDeletionRoute() {
  return (
    <CenteredCardLayout>
      <DataDeletionStatus />
    </CenteredCardLayout>
  )
}
