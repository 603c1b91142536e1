import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { AiNote, SandboxBadge } from '@/components/ai/ai-note'
import { CheckboxField, Field, Input, Select, Textarea } from '@/components/ui/form-field'
import { useToast } from '@/components/ui/toast'
import { WizardDialog } from '@/components/ui/wizard-dialog'
import { useAiStatus } from '@/lib/ai'
import { cn } from '@/lib/cn'
import { queryRoots } from '@/lib/query-keys'
import { createScrapingCampaign } from '../../api/create-scraping-campaign'
import { getScrapingAccounts } from '../../api/get-scraping-accounts'
import {
  criteriaText,
  defaultScrapingForm,
  SCRAPING_STEPS,
  SCRAPING_TEXT,
  type ScrapingForm,
  SOURCE_METHODS,
  scrapingRequest,
  scrapingStepProblems,
  targetCountOf,
} from '../../scraping-form'

export const NO_ACTIVE_ACCOUNTS =
  'No active accounts found. Please add and verify a social media account first.'

/** product.md §2 Modals 1: Create Scraping Campaign in four steps. */
export function ScrapingWizard({ onClose }: { onClose: () => void }) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const [step, setStep] = useState(0)
  const [form, setForm] = useState<ScrapingForm>(defaultScrapingForm)
  const [touched, setTouched] = useState<Set<string>>(new Set())
  const accounts = useQuery({ queryKey: [queryRoots.accounts, 'scrapers'], queryFn: getScrapingAccounts })
  const ai = useAiStatus()
  const aiStatus = ai.data?.available === true ? ai.data : null
  const problems = scrapingStepProblems(form, step)
  const show = (field: keyof ScrapingForm) => (touched.has(field) ? problems[field] : undefined)
  // A field's problem shows once the user has left it (validate on blur), never while they type.
  const touch = (field: keyof ScrapingForm) => () =>
    setTouched((t) => (t.has(field) ? t : new Set([...t, field])))
  const patch = (change: Partial<ScrapingForm>) => setForm((f) => ({ ...f, ...change }))
  const method =
    SOURCE_METHODS.find((m) => m.value === form.sourceType) ??
    (SOURCE_METHODS[0] as (typeof SOURCE_METHODS)[number])

  const create = useMutation({
    mutationFn: () => createScrapingCampaign(scrapingRequest(form)),
    onSuccess: () => {
      toast.success('Start it from the list when you are ready.', 'Scraping campaign created', {
        duration: 4000,
      })
      void queryClient.invalidateQueries({ queryKey: [queryRoots.scraping] })
      void queryClient.invalidateQueries({ queryKey: [queryRoots.dashboard] })
      void queryClient.invalidateQueries({ queryKey: [queryRoots.leads] })
      setForm(defaultScrapingForm())
      setStep(0)
      onClose()
    },
  })
  const account = accounts.data?.find((a) => a.id === form.accountId)

  return (
    <WizardDialog
      title="Create Scraping Campaign"
      steps={SCRAPING_STEPS}
      step={step}
      canContinue={Object.keys(problems).length === 0}
      onBack={() => setStep((s) => Math.max(0, s - 1))}
      onNext={() => setStep((s) => s + 1)}
      onSubmit={() => create.mutate()}
      onClose={onClose}
      submitLabel="Create Campaign"
      submittingLabel="Creating..."
      submitting={create.isPending}
      error={create.isError ? create.error.message : null}
    >
      {step === 0 && (
        <>
          <Field id="scr-name" label="Campaign name" error={show('name')}>
            <Input
              id="scr-name"
              autoComplete="off"
              placeholder="e.g. Indie hackers"
              value={form.name}
              onChange={(e) => patch({ name: e.target.value })}
              onBlur={touch('name')}
            />
          </Field>
          <Field
            id="scr-account"
            label="Account"
            hint="The account whose session browses the platform."
            error={accounts.data?.length === 0 ? NO_ACTIVE_ACCOUNTS : show('accountId')}
          >
            <Select
              id="scr-account"
              value={form.accountId}
              disabled={!accounts.data?.length}
              onChange={(e) => patch({ accountId: e.target.value })}
              onBlur={touch('accountId')}
            >
              <option value="">{accounts.data ? 'Choose an account' : 'Loading accounts...'}</option>
              {accounts.data?.map((a) => (
                <option key={a.id} value={a.id}>
                  @{a.username} · {a.platform?.display_name}
                </option>
              ))}
            </Select>
          </Field>
        </>
      )}
      {step === 1 && (
        <>
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">Method</legend>
            <div className="mt-1.5 grid grid-cols-2 gap-2">
              {SOURCE_METHODS.map((m) => (
                <button
                  key={m.value}
                  type="button"
                  aria-pressed={form.sourceType === m.value}
                  onClick={() => patch({ sourceType: m.value })}
                  className={cn(
                    'rounded-xl px-3 py-2.5 text-left text-sm font-medium ring-1 transition',
                    form.sourceType === m.value
                      ? 'bg-brand-50 text-brand-800 ring-2 ring-brand-600'
                      : 'bg-white text-slate-700 ring-slate-200 hover:ring-slate-300',
                  )}
                >
                  {m.label}
                </button>
              ))}
            </div>
          </fieldset>
          <Field id="scr-value" label={method.valueLabel} hint={method.hint} error={show('sourceValue')}>
            <Input
              id="scr-value"
              autoComplete="off"
              placeholder={method.placeholder}
              value={form.sourceValue}
              onChange={(e) => patch({ sourceValue: e.target.value })}
              onBlur={touch('sourceValue')}
            />
          </Field>
          <Field
            id="scr-target"
            label="Target count"
            hint={`Valid leads to collect, 1 to 10,000. ${targetCountOf(form.targetCount) !== Number(form.targetCount) ? 'Anything else means 100.' : ''}`}
          >
            <Input
              id="scr-target"
              type="number"
              min={1}
              max={10000}
              className="w-36"
              value={form.targetCount}
              onChange={(e) => patch({ targetCount: e.target.value })}
            />
          </Field>
        </>
      )}
      {step === 2 && (
        <>
          <p className="text-sm text-slate-600">
            Optional: leads that fail a filter are kept but marked filtered, and never messaged.
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="scr-min" label="Min followers" error={show('minFollowers')}>
              <Input
                id="scr-min"
                type="number"
                min={0}
                value={form.minFollowers}
                onChange={(e) => patch({ minFollowers: e.target.value })}
                onBlur={touch('minFollowers')}
              />
            </Field>
            <Field
              id="scr-max"
              label="Max followers"
              hint="Leave empty for no limit"
              error={show('maxFollowers')}
            >
              <Input
                id="scr-max"
                type="number"
                min={0}
                placeholder="No limit"
                value={form.maxFollowers}
                onChange={(e) => patch({ maxFollowers: e.target.value })}
                onBlur={touch('maxFollowers')}
              />
            </Field>
          </div>
          <div className="space-y-1 rounded-xl p-1 ring-1 ring-slate-200">
            <CheckboxField
              id="scr-verified"
              label="Verified accounts only"
              checked={form.verifiedOnly}
              onChange={(e) => patch({ verifiedOnly: e.target.checked })}
            />
            <CheckboxField
              id="scr-bio"
              label="Must have a bio"
              checked={form.hasBio}
              onChange={(e) => patch({ hasBio: e.target.checked })}
            />
            <CheckboxField
              id="scr-business"
              label="Exclude business accounts"
              checked={form.excludeBusiness}
              onChange={(e) => patch({ excludeBusiness: e.target.checked })}
            />
          </div>
          {aiStatus ? (
            <fieldset className="space-y-3 rounded-xl p-3 ring-1 ring-slate-200" data-testid="ai-filter">
              <legend className="flex items-center gap-2 px-1 text-sm font-semibold text-slate-800">
                AI lead filtering <span className="font-normal text-slate-400">(optional)</span>
                {aiStatus.sandbox && <SandboxBadge />}
              </legend>
              <Field
                id="scr-ai-ideal"
                label="Ideal customer"
                hint="Each lead's bio is scored 0-100 against this. Leads below the minimum are kept as filtered, with the score and reason; leads the AI cannot score are kept, marked unscored."
                error={show('aiIdealCustomer')}
              >
                <Textarea
                  id="scr-ai-ideal"
                  rows={2}
                  maxLength={1000}
                  placeholder="Founders of B2B SaaS startups who build in public"
                  value={form.aiIdealCustomer}
                  onChange={(e) => patch({ aiIdealCustomer: e.target.value })}
                  onBlur={touch('aiIdealCustomer')}
                />
              </Field>
              {form.aiIdealCustomer.trim() !== '' && (
                <Field
                  id="scr-ai-min"
                  label="Minimum AI score"
                  hint="0 to 100; 60 keeps clear matches"
                  error={show('aiMinScore')}
                >
                  <Input
                    id="scr-ai-min"
                    type="number"
                    min={0}
                    max={100}
                    className="w-28"
                    value={form.aiMinScore}
                    onChange={(e) => patch({ aiMinScore: e.target.value })}
                    onBlur={touch('aiMinScore')}
                  />
                </Field>
              )}
              {aiStatus.budget?.exhausted && (
                <AiNote>{aiStatus.reason} Leads are kept unscored until then.</AiNote>
              )}
            </fieldset>
          ) : (
            ai.data && <AiNote>{ai.data.reason ?? 'AI lead filtering is not available.'}</AiNote>
          )}
        </>
      )}
      {step === 3 && (
        <>
          <dl className="divide-y divide-slate-100 rounded-xl px-4 text-sm ring-1 ring-slate-200">
            {[
              ['Name', form.name.trim()],
              ['Account', account ? `@${account.username}` : '—'],
              ['Source', criteriaText([scrapingRequest(form).sources])],
              ['Target count', String(targetCountOf(form.targetCount))],
              [
                'Filters',
                [
                  `${form.minFollowers || 0}–${form.maxFollowers || '∞'} followers`,
                  form.verifiedOnly && 'verified only',
                  form.hasBio && 'with bio',
                  form.excludeBusiness && 'no business accounts',
                ]
                  .filter(Boolean)
                  .join(', '),
              ],
              ...(form.aiIdealCustomer.trim()
                ? [
                    [
                      'AI filter',
                      `Score ≥ ${form.aiMinScore} for “${form.aiIdealCustomer.trim().slice(0, 80)}”`,
                    ],
                  ]
                : []),
            ].map(([label, value]) => (
              <div key={label as string} className="flex justify-between gap-4 py-2.5">
                <dt className="text-slate-500">{label}</dt>
                <dd className="text-right font-medium text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="rounded-xl bg-brand-50 px-4 py-3 text-sm text-brand-800">{SCRAPING_TEXT.review}</p>
        </>
      )}
    </WizardDialog>
  )
}
