import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId } from 'react'
import { Select } from '@/components/ui/form-field'
import { useToast } from '@/components/ui/toast'
import { queryRoots } from '@/lib/query-keys'
import { findPerson, personName } from '@/lib/workspace-people'
import { assignThread } from '../api/assign-thread'
import type { InboxThread, WorkspacePerson } from '../api/types'

/** Who handles the conversation: any member who may use the inbox (viewers cannot), or nobody. */
export function AssignControl({
  thread,
  people,
  me,
}: {
  thread: InboxThread
  people: readonly WorkspacePerson[]
  me: string | undefined
}) {
  const id = useId()
  const toast = useToast()
  const queryClient = useQueryClient()
  const assign = useMutation({
    mutationFn: (memberId: string | null) => assignThread(thread.id, memberId),
    onSuccess: (_data, memberId) => {
      const name = personName(findPerson(people, memberId), me)
      toast.success(memberId ? `Assigned to ${name === 'You' ? 'you' : name}` : 'Unassigned')
      void queryClient.invalidateQueries({ queryKey: [queryRoots.inbox] })
    },
    onError: (error) => toast.error(error.message),
  })
  const assignable = people.filter((p) => p.role !== 'viewer')
  const value = assign.isPending ? (assign.variables ?? '') : (thread.assigned_to ?? '')
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="shrink-0 text-xs font-medium text-slate-500">
        Assigned to
      </label>
      <div className="min-w-0 flex-1 sm:max-w-64">
        <Select
          id={id}
          className="h-9 py-0"
          value={value}
          disabled={assign.isPending}
          onChange={(event) => assign.mutate(event.target.value || null)}
        >
          <option value="">Unassigned</option>
          {assignable.map((person) => (
            <option key={person.user_id} value={person.user_id}>
              {personName(person, me)}
            </option>
          ))}
          {thread.assigned_to && !assignable.some((p) => p.user_id === thread.assigned_to) && (
            <option value={thread.assigned_to}>A former member</option>
          )}
        </Select>
      </div>
    </div>
  )
}
