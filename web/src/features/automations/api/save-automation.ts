import { supabase } from '@/lib/supabase'
import { type AutomationFormValues, automationRow } from '../automation-form'

// The database checks every rule again (its constraints and the account trigger): what it refuses
// is shown to the customer in its own words.

export async function createAutomation(values: AutomationFormValues): Promise<void> {
  const { error } = await supabase.from('instagram_automations').insert(automationRow(values))
  if (error) throw new Error(error.message)
}

export async function updateAutomation(id: string, values: AutomationFormValues): Promise<void> {
  const { error } = await supabase.from('instagram_automations').update(automationRow(values)).eq('id', id)
  if (error) throw new Error(error.message)
}

export async function setAutomationEnabled(id: string, enabled: boolean): Promise<void> {
  const { error } = await supabase.from('instagram_automations').update({ enabled }).eq('id', id)
  if (error) throw new Error(`Could not ${enabled ? 'turn on' : 'pause'} the automation: ${error.message}`)
}

export async function deleteAutomation(id: string): Promise<void> {
  const { error } = await supabase.from('instagram_automations').delete().eq('id', id)
  if (error) throw new Error(`Could not delete the automation: ${error.message}`)
}
