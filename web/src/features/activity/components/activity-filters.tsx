import { Input, Select } from '@/components/ui/form-field'
import { personName, type WorkspacePerson } from '@/lib/workspace-people'
import { ACTIVITY_ACTIONS, type ActivityAction, type ActivityFilters, REACHFLOW_ACTOR } from '../api/types'

const fieldLabel = 'mb-1 block text-xs font-medium text-slate-600'

/** Action, member and date range: the page and its CSV export both follow them. */
export function ActivityFiltersBar({
  filters,
  people,
  me,
  onChange,
}: {
  filters: ActivityFilters
  people: readonly WorkspacePerson[]
  me: string | undefined
  onChange: (next: Partial<ActivityFilters>) => void
}) {
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      <div>
        <label htmlFor="activity-action" className={fieldLabel}>
          Action
        </label>
        <Select
          id="activity-action"
          className="h-9 py-0"
          value={filters.action}
          onChange={(e) => onChange({ action: e.target.value as ActivityAction | '' })}
        >
          <option value="">All actions</option>
          {Object.entries(ACTIVITY_ACTIONS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </div>
      <div>
        <label htmlFor="activity-member" className={fieldLabel}>
          Member
        </label>
        <Select
          id="activity-member"
          className="h-9 py-0"
          value={filters.actor}
          onChange={(e) => onChange({ actor: e.target.value })}
        >
          <option value="">Everyone</option>
          {people.map((person) => (
            <option key={person.user_id} value={person.user_id}>
              {person.email ?? personName(person, me)}
              {person.user_id === me && ' (you)'}
            </option>
          ))}
          <option value={REACHFLOW_ACTOR}>Reachflow (automatic)</option>
        </Select>
      </div>
      <div>
        <label htmlFor="activity-from" className={fieldLabel}>
          From
        </label>
        <Input
          id="activity-from"
          type="date"
          className="h-9 py-0"
          value={filters.from}
          max={filters.to || undefined}
          onChange={(e) => onChange({ from: e.target.value })}
        />
      </div>
      <div>
        <label htmlFor="activity-to" className={fieldLabel}>
          To
        </label>
        <Input
          id="activity-to"
          type="date"
          className="h-9 py-0"
          value={filters.to}
          min={filters.from || undefined}
          onChange={(e) => onChange({ to: e.target.value })}
        />
      </div>
    </div>
  )
}
