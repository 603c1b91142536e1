import { useMutation, useQueryClient } from '@tanstack/react-query'
import { AlertCircle, CheckCircle2, Download, FileUp } from 'lucide-react'
import { type ChangeEvent, useMemo, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Dialog } from '@/components/ui/dialog'
import { Field, Select, Textarea } from '@/components/ui/form-field'
import { csvFilename, downloadCsv } from '@/lib/csv'
import { formatCount, pluralize } from '@/lib/format'
import { addDncEntries } from '../api/change-dnc'
import { type AddResult, type DncPlatform, dncKeys, PLATFORM_LABEL } from '../api/types'
import { MAX_IMPORT_BYTES, type ParsedRow, readImport, rowsToFixCsv } from '../dnc-csv'
import { ImportPreview } from './import-preview'

interface Outcome {
  added: number
  already: number
  merged: number
  /** Rows not imported, with why: the file's bad rows and any the database refused. */
  notImported: { row: ParsedRow; error: string }[]
}

/** The rows that were not imported, as they were in the file plus why, to fix and import again. */
function downloadRowsToFix(header: string[] | null, rows: Outcome['notImported']) {
  downloadCsv(
    csvFilename('do-not-contact-rows-to-fix'),
    rowsToFixCsv(
      header,
      rows.map(({ row, error }) => ({ cells: row.cells, error })),
    ),
  )
}

/**
 * CSV import in three moves: pick a file (or paste), read the preview (every row with what will
 * happen to it), import the good rows. Bad rows are never silently dropped: they are listed with
 * their reason and can be downloaded to fix.
 */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient()
  const [text, setText] = useState('')
  const [fileName, setFileName] = useState<string | null>(null)
  const [fileProblem, setFileProblem] = useState<string | null>(null)
  const [fallback, setFallback] = useState<DncPlatform | ''>('twitter')
  const [progress, setProgress] = useState(0)
  const parsed = useMemo(() => (text.trim() ? readImport(text, fallback || null) : null), [text, fallback])
  const toImport = parsed?.rows.filter((r) => r.error === null && r.duplicateOf === null) ?? []
  const merged = parsed?.rows.filter((r) => r.duplicateOf !== null).length ?? 0
  const bad = parsed?.rows.filter((r) => r.error !== null) ?? []

  const run = useMutation({
    mutationFn: async (): Promise<Outcome> => {
      const results: AddResult[] = await addDncEntries(
        toImport.map((r) => ({
          platform: r.platform as DncPlatform,
          username: r.username,
          reason: r.reason || `Imported from ${fileName ?? 'a list'}`,
        })),
        setProgress,
      )
      const refused = results.flatMap((result, i) => {
        const row = toImport[i]
        return result.outcome === 'invalid' && row ? [{ row, error: result.error ?? 'Refused' }] : []
      })
      return {
        added: results.filter((r) => r.outcome === 'added').length,
        already: results.filter((r) => r.outcome === 'already' || r.outcome === 'duplicate').length,
        merged,
        notImported: [...bad.map((row) => ({ row, error: row.error ?? '' })), ...refused],
      }
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: dncKeys.all }),
  })

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    setFileProblem(null)
    if (!file) return
    if (file.size > MAX_IMPORT_BYTES) {
      setFileProblem(`${file.name} is larger than 2 MB: split it and import the parts.`)
      return
    }
    setFileName(file.name)
    setText(await file.text())
  }

  const outcome = run.data
  if (outcome) {
    return (
      <Dialog open onClose={onClose} title="Import finished" size="2xl">
        <div className="space-y-4">
          <p
            role="status"
            className="flex items-start gap-2 rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-800 ring-1 ring-emerald-200"
          >
            <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              {pluralize(outcome.added, 'person', 'people')} added
              {outcome.already > 0 && `, ${formatCount(outcome.already)} already on the list`}
              {outcome.merged > 0 && `, ${pluralize(outcome.merged, 'repeated row')} merged`}.
            </span>
          </p>
          {outcome.notImported.length > 0 && (
            <div className="flex flex-col gap-3 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200 sm:flex-row sm:items-center sm:justify-between">
              <p className="flex items-start gap-2">
                <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                {pluralize(outcome.notImported.length, 'row')} not imported: download them with the reason,
                fix them and import that file.
              </p>
              <Button
                variant="secondary"
                size="sm"
                icon={<Download className="size-4" aria-hidden="true" />}
                onClick={() => downloadRowsToFix(parsed?.header ?? null, outcome.notImported)}
              >
                Download rows to fix
              </Button>
            </div>
          )}
          <div className="flex justify-end border-t border-slate-100 pt-4">
            <Button onClick={onClose}>Done</Button>
          </div>
        </div>
      </Dialog>
    )
  }

  const blocked = !parsed
    ? 'Choose a file or paste usernames to see what will be imported.'
    : parsed.problem
      ? parsed.problem
      : toImport.length === 0
        ? 'No row can be imported: fix the rows marked below.'
        : null

  return (
    <Dialog
      open
      onClose={run.isPending ? undefined : onClose}
      title="Import a do-not-contact list"
      size="4xl"
    >
      <div className="space-y-5">
        <p className="text-sm text-slate-600">
          A CSV with a <strong>username</strong> column, and optionally <strong>platform</strong> (Twitter or
          Instagram) and <strong>reason</strong>. Without a header, the first column is the username and the
          second the platform. @names and profile links work too; repeated people are merged.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="dnc-file" label="CSV file" error={fileProblem}>
            <label
              htmlFor="dnc-file"
              className="flex cursor-pointer items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-slate-50 px-4 py-3 text-sm text-slate-700 hover:border-brand-400 hover:bg-brand-50/40 focus-within:ring-2 focus-within:ring-brand-600"
            >
              <FileUp className="size-5 shrink-0 text-slate-400" aria-hidden="true" />
              <span className="truncate">{fileName ?? 'Choose a .csv file (up to 2 MB, 10,000 rows)'}</span>
              <input
                id="dnc-file"
                type="file"
                accept=".csv,text/csv,text/plain"
                className="sr-only"
                onChange={onFile}
              />
            </label>
          </Field>
          <Field
            id="dnc-fallback"
            label="Platform of rows without one"
            hint="Used when a row names no platform and is not a profile link."
          >
            <Select
              id="dnc-fallback"
              value={fallback}
              onChange={(e) => setFallback(e.target.value as DncPlatform | '')}
            >
              <option value="twitter">{PLATFORM_LABEL.twitter}</option>
              <option value="instagram">{PLATFORM_LABEL.instagram}</option>
              <option value="">None: every row must say</option>
            </Select>
          </Field>
        </div>
        <Field id="dnc-paste" label="Or paste" optional hint="One person per line, or CSV rows.">
          <Textarea
            id="dnc-paste"
            rows={3}
            className="font-mono text-xs"
            placeholder={'@first_person\nsecond_person,instagram,Asked by e-mail'}
            value={fileName ? '' : text}
            onChange={(e) => {
              setFileName(null)
              setText(e.target.value)
            }}
          />
        </Field>

        {parsed && !parsed.problem && (
          <ImportPreview rows={parsed.rows} toImport={toImport.length} merged={merged} bad={bad.length} />
        )}
        {run.isError && (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200">
            {run.error.message}
          </p>
        )}

        <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-4 sm:flex-row sm:items-center sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={run.isPending}>
            Cancel
          </Button>
          {blocked && (
            <p id="dnc-import-blocked" className="text-sm text-slate-600 sm:order-first sm:mr-auto">
              {blocked}
            </p>
          )}
          <Button
            onClick={() => run.mutate()}
            disabled={blocked !== null}
            loading={run.isPending}
            loadingText={`Importing ${formatCount(progress)} of ${formatCount(toImport.length)}...`}
            aria-describedby={blocked ? 'dnc-import-blocked' : undefined}
          >
            Import {pluralize(toImport.length, 'person', 'people')}
          </Button>
        </div>
      </div>
    </Dialog>
  )
}
