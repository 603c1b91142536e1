import { useId } from 'react'

interface AccountSliderProps {
  min: number
  max: number
  value: number
  onChange: (accounts: number) => void
  label?: string
  /** Labels under the track, e.g. ['2', '25', '50+']. */
  marks?: string[]
}

/** Whole-number account count slider (growth plan). */
export function AccountSlider({
  min,
  max,
  value,
  onChange,
  label = 'Number of accounts',
  marks,
}: AccountSliderProps) {
  const id = useId()
  return (
    <div>
      <div className="flex items-center justify-between text-sm">
        <label htmlFor={id} className="font-medium text-slate-700">
          {label}
        </label>
        <output htmlFor={id} className="rounded-md bg-brand-50 px-2 py-0.5 font-semibold text-brand-700">
          {value} account{value === 1 ? '' : 's'}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={1}
        value={value}
        onChange={(event) => onChange(Math.round(Number(event.target.value)))}
        className="mt-3 w-full accent-brand-600"
      />
      {marks && (
        <div className="mt-1 flex justify-between text-xs text-slate-500" aria-hidden="true">
          {marks.map((mark) => (
            <span key={mark}>{mark}</span>
          ))}
        </div>
      )}
    </div>
  )
}
