import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useToast } from '@/components/ui/toast'
import { WizardDialog } from '@/components/ui/wizard-dialog'
import { queryRoots } from '@/lib/query-keys'
import { createCampaign } from '../../api/create-campaign'
import { getLeadSources } from '../../api/get-lead-sources'
import { getSenderAccounts } from '../../api/get-sender-accounts'
import {
  CAMPAIGN_STEPS,
  type CampaignForm,
  campaignRequest,
  defaultCampaignForm,
  nameForSource,
  stepProblems,
} from '../../campaign-form'
import { LeadSourceStep } from './lead-source-step'
import { MessagesStep } from './messages-step'
import { ReviewStep } from './review-step'
import { ScheduleStep } from './schedule-step'
import { SetupStep } from './setup-step'

/** product.md §2 Modals 3: Create New (DM) Campaign in five steps. */
export function CampaignWizard({
  onClose,
  initialSourceId,
}: {
  onClose: () => void
  initialSourceId?: string
}) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const [step, setStep] = useState(0)
  const [campaignId, setCampaignId] = useState(() => crypto.randomUUID())
  const form = useForm<CampaignForm>({
    defaultValues: { ...defaultCampaignForm(), scrapingCampaignId: initialSourceId ?? '' },
    mode: 'onChange',
  })
  // product.md §4: account loading starts when the modal opens.
  const accounts = useQuery({ queryKey: [queryRoots.accounts, 'senders'], queryFn: getSenderAccounts })
  const sources = useQuery({ queryKey: [queryRoots.scraping, 'lead-sources'], queryFn: getLeadSources })

  // Opened from a scraping campaign: its name fills an empty campaign name, as choosing it would (product.md §5).
  useEffect(() => {
    const source = sources.data?.find((s) => s.id === initialSourceId)
    if (source)
      form.setValue('name', nameForSource(form.getValues('name'), source.name), { shouldDirty: true })
  }, [sources.data, initialSourceId, form])

  const values = form.watch()
  const problems = stepProblems(values, step)
  const create = useMutation({
    mutationFn: () => {
      const account = accounts.data?.find((a) => a.id === values.accountId)
      // Accounts are on X (twitter) or Instagram; the api function checks the account's own platform.
      const platform = account?.platform?.name === 'instagram' ? 'instagram' : 'twitter'
      return createCampaign(campaignRequest(form.getValues(), campaignId, platform))
    },
    onSuccess: (campaign) => {
      toast.success(
        campaign.status === 'draft' ? 'Campaign saved as a draft' : 'Campaign started',
        'Campaign created',
        { duration: 4000 },
      )
      void queryClient.invalidateQueries({ queryKey: [queryRoots.campaigns] })
      void queryClient.invalidateQueries({ queryKey: [queryRoots.dashboard] })
      void queryClient.invalidateQueries({ queryKey: [queryRoots.leads] })
      // product.md §4: after creation the form resets to step 1 and the modal closes.
      form.reset(defaultCampaignForm())
      setStep(0)
      setCampaignId(crypto.randomUUID())
      onClose()
    },
  })

  const body = [
    <SetupStep key="setup" form={form} accounts={accounts.data} problems={problems} />,
    <LeadSourceStep
      key="source"
      form={form}
      sources={sources.data}
      error={sources.isError ? sources.error.message : null}
    />,
    <MessagesStep
      key="messages"
      form={form}
      problems={problems}
      platform={
        accounts.data?.find((a) => a.id === values.accountId)?.platform?.name === 'instagram'
          ? 'instagram'
          : 'twitter'
      }
    />,
    <ScheduleStep key="schedule" form={form} campaignId={campaignId} problems={problems} />,
    <ReviewStep key="review" form={form} accounts={accounts.data} sources={sources.data} />,
  ][step]

  return (
    <WizardDialog
      title="Create New Campaign"
      size="2xl"
      steps={CAMPAIGN_STEPS}
      step={step}
      canContinue={Object.keys(problems).length === 0}
      onBack={() => setStep((s) => Math.max(0, s - 1))}
      onNext={() => setStep((s) => Math.min(CAMPAIGN_STEPS.length - 1, s + 1))}
      onSubmit={() => create.mutate()}
      onClose={onClose}
      submitLabel={values.runImmediately ? 'Create & Start' : 'Create Campaign'}
      submittingLabel="Creating Campaign..."
      submitting={create.isPending}
      error={create.isError ? create.error.message : null}
    >
      {body}
    </WizardDialog>
  )
}
