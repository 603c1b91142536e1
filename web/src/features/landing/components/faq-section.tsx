import { ChevronDown, MessageCircleQuestion } from 'lucide-react'
import { useId, useState } from 'react'
import { cn } from '@/lib/cn'
import { faqItems } from '../faq-items'
import { BookingLink } from './cta-links'

/** Eight questions, one open at a time (clicking the open one closes it), and the book-a-call box. */
export function FaqSection() {
  const [openIndex, setOpenIndex] = useState<number | null>(null)
  const baseId = useId()
  return (
    <section id="faq" aria-labelledby="faq-title" className="bg-white py-20 sm:py-28">
      <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-[1fr_22rem] lg:px-8">
        <div>
          <h2 id="faq-title" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            Frequently asked questions
          </h2>
          <div className="mt-10 divide-y divide-slate-200 border-y border-slate-200">
            {faqItems.map((item, index) => {
              const open = openIndex === index
              const panelId = `${baseId}-panel-${index}`
              const buttonId = `${baseId}-button-${index}`
              return (
                <div key={item.question}>
                  <h3>
                    <button
                      id={buttonId}
                      type="button"
                      aria-expanded={open}
                      aria-controls={panelId}
                      onClick={() => setOpenIndex(open ? null : index)}
                      className="flex w-full items-center justify-between gap-4 py-5 text-left text-base font-semibold text-slate-900"
                    >
                      {item.question}
                      <ChevronDown
                        className={cn(
                          'size-5 shrink-0 text-slate-400 transition-transform',
                          open && 'rotate-180',
                        )}
                        aria-hidden="true"
                      />
                    </button>
                  </h3>
                  <section
                    id={panelId}
                    aria-labelledby={buttonId}
                    hidden={!open}
                    className="pb-5 leading-7 text-slate-600"
                  >
                    {item.answer}
                  </section>
                </div>
              )
            })}
          </div>
        </div>
        <aside className="h-fit rounded-3xl bg-slate-950 p-8 text-white lg:sticky lg:top-24">
          <MessageCircleQuestion className="size-9 text-brand-300" aria-hidden="true" />
          <h3 className="mt-5 text-xl font-semibold">Still have questions?</h3>
          <p className="mt-2 leading-7 text-slate-300">
            Book a free 15-minute call. We will look at your market and show you the campaign we would run.
          </p>
          <BookingLink placement="faq" variant="primary" size="md" className="mt-6 w-full">
            Book a call
          </BookingLink>
        </aside>
      </div>
    </section>
  )
}
