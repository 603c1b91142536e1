// product.md §2 step 2: the goal ids are fixed; the labels and hints are ours.
export const goals = [
  { id: 'lead_generation', label: 'Lead Generation', hint: 'Fill my pipeline with qualified prospects' },
  { id: 'sales', label: 'Sales', hint: 'Turn conversations into closed deals' },
  { id: 'brand_awareness', label: 'Brand Awareness', hint: 'Get my name in front of the right people' },
  { id: 'network', label: 'Networking', hint: 'Build relationships with peers and partners' },
  { id: 'recruiting', label: 'Recruiting', hint: 'Reach great candidates where they spend time' },
  { id: 'other', label: 'Other', hint: 'Something else entirely' },
] as const

export type GoalId = (typeof goals)[number]['id']

export const GOALS_SAVED_MESSAGE_MS = 4000
