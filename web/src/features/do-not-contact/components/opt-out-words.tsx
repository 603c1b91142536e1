import {
  DEFAULT_OPT_OUT_WORDS,
  normaliseOptOutWord,
  type OptOutWords,
  optOutMatch,
  optOutWordProblem,
  optOutWordsProblem,
} from '@reachflow/domain'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Plus, X } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/form-field'
import { ReadOnlyNote } from '@/components/ui/read-only-note'
import { useToast } from '@/components/ui/toast'
import { useCanEditWorkspace } from '@/lib/workspace/use-workspace-role'
import { saveOptOutWords } from '../api/change-dnc'
import { dncKeys } from '../api/types'

type ListName = keyof OptOutWords

const LISTS: { name: ListName; label: string; hint: string; placeholder: string }[] = [
  {
    name: 'anywhere',
    label: 'Anywhere in a reply',
    hint: '"Please unsubscribe me" opts out.',
    placeholder: 'e.g. remove me',
  },
  {
    name: 'atStart',
    label: 'At the start of a short reply',
    hint: 'A reply of the word and at most two more: "Stop please" opts out, "Stop by our booth" does not.',
    placeholder: 'e.g. no thanks',
  },
]

function WordList({
  list,
  words,
  readOnly,
  onChange,
}: {
  list: (typeof LISTS)[number]
  words: string[]
  /** A role that only reads (a viewer) sees the words without the means to change them. */
  readOnly: boolean
  onChange: (words: string[]) => void
}) {
  const [draft, setDraft] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const id = `opt-out-${list.name}`
  const add = (event: FormEvent) => {
    event.preventDefault()
    const word = normaliseOptOutWord(draft)
    const error = optOutWordProblem(word)
    if (error) return setProblem(error)
    if (words.includes(word)) return setProblem(`"${word}" is already in this list.`)
    setProblem(null)
    setDraft('')
    onChange([...words, word])
  }
  return (
    <div>
      <h3 id={`${id}-title`} className="text-sm font-medium text-slate-800">
        {list.label}
      </h3>
      <p className="mt-0.5 text-xs text-slate-500">{list.hint}</p>
      <ul aria-labelledby={`${id}-title`} className="mt-2 flex min-h-8 flex-wrap gap-2">
        {words.length === 0 && <li className="text-sm text-slate-400">No words</li>}
        {words.map((word) => (
          <li
            key={word}
            className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-1 pr-1 pl-3 text-sm font-medium text-brand-800 ring-1 ring-brand-200"
          >
            {word}
            {!readOnly && (
              <button
                type="button"
                aria-label={`Remove "${word}"`}
                className="rounded-full p-0.5 text-brand-500 hover:bg-brand-100 hover:text-brand-800"
                onClick={() => onChange(words.filter((w) => w !== word))}
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            )}
          </li>
        ))}
      </ul>
      {!readOnly && (
        <form noValidate onSubmit={add} className="mt-2 flex gap-2">
          <Input
            aria-label={`Add a word: ${list.label.toLowerCase()}`}
            className="h-9 py-0"
            placeholder={list.placeholder}
            maxLength={60}
            value={draft}
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${id}-error` : undefined}
            onChange={(e) => {
              setProblem(null)
              setDraft(e.target.value)
            }}
          />
          <Button
            type="submit"
            variant="secondary"
            size="sm"
            className="h-9"
            icon={<Plus className="size-4" aria-hidden="true" />}
          >
            Add
          </Button>
        </form>
      )}
      {problem && (
        <p id={`${id}-error`} className="mt-1.5 text-xs font-medium text-red-600">
          {problem}
        </p>
      )}
    </div>
  )
}

const same = (a: OptOutWords, b: OptOutWords) =>
  a.anywhere.join('\n') === b.anywhere.join('\n') && a.atStart.join('\n') === b.atStart.join('\n')

/** The opt-out words, editable, with a box to try a reply against them. */
export function OptOutWordsCard({ saved }: { saved: OptOutWords }) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const canEdit = useCanEditWorkspace()
  const [words, setWords] = useState<OptOutWords>(saved)
  const [sample, setSample] = useState('')
  const problem = optOutWordsProblem(words)
  const changed = !same(words, saved)
  const save = useMutation({
    mutationFn: () => saveOptOutWords(words),
    onSuccess: (stored) => {
      setWords(stored)
      toast.success('Opt-out words saved')
      void queryClient.invalidateQueries({ queryKey: dncKeys.overview })
    },
  })
  const match = sample.trim() ? optOutMatch(sample, words) : null
  const blocked = problem ?? (changed ? null : 'No changes to save.')

  return (
    <Card>
      <CardHeader>
        <CardTitle>Opt-out words</CardTitle>
        <p className="mt-1 text-sm text-slate-600">
          A reply with one of these words adds the person to the list above, and they are never messaged again
          from any account. Case and punctuation do not matter.
        </p>
      </CardHeader>
      <CardBody className="space-y-6">
        <div className="grid gap-6 md:grid-cols-2">
          {LISTS.map((list) => (
            <WordList
              key={list.name}
              list={list}
              words={words[list.name]}
              readOnly={!canEdit}
              onChange={(next) => setWords((current) => ({ ...current, [list.name]: next }))}
            />
          ))}
        </div>
        <div className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
          <label htmlFor="opt-out-try" className="text-sm font-medium text-slate-800">
            Try a reply
          </label>
          <Input
            id="opt-out-try"
            className="mt-1.5"
            placeholder="Paste a reply you received"
            value={sample}
            onChange={(e) => setSample(e.target.value)}
          />
          {sample.trim() && (
            <p
              role="status"
              className={`mt-2 text-sm font-medium ${match ? 'text-red-700' : 'text-slate-700'}`}
            >
              {match ? `Opts out (because of "${match}")` : 'An ordinary reply: no opt-out'}
            </p>
          )}
        </div>
        {save.isError && (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-700 ring-1 ring-red-200">
            {save.error.message}
          </p>
        )}
        {!canEdit ? (
          <ReadOnlyNote className="border-t border-slate-100 pt-4" />
        ) : (
          <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-4 sm:flex-row sm:items-center sm:justify-end">
            <Button
              variant="ghost"
              onClick={() => setWords(DEFAULT_OPT_OUT_WORDS)}
              disabled={same(words, DEFAULT_OPT_OUT_WORDS)}
            >
              Use the defaults
            </Button>
            {blocked && (
              <p
                id="opt-out-blocked"
                className={`text-sm sm:order-first sm:mr-auto ${problem ? 'font-medium text-red-700' : 'text-slate-500'}`}
              >
                {blocked}
              </p>
            )}
            <Button
              onClick={() => save.mutate()}
              disabled={blocked !== null}
              loading={save.isPending}
              loadingText="Saving..."
              aria-describedby={blocked ? 'opt-out-blocked' : undefined}
            >
              Save words
            </Button>
          </div>
        )}
      </CardBody>
    </Card>
  )
}
