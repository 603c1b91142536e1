import { expectedXApiCostText, xApiPricesText } from '@reachflow/domain'

/**
 * What the X API will cost the customer's developer app, where they decide: X bills pay-per-use,
 * so the note says the expected daily cost at their DMs a day and, with `prices`, X's prices.
 */
export function XApiCostNote({ dmsPerDay, prices = false }: { dmsPerDay: number; prices?: boolean }) {
  return (
    <div
      className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200"
      data-testid="x-api-cost"
    >
      <p className="font-medium">X charges your developer app for each request.</p>
      <p className="mt-1">{expectedXApiCostText(dmsPerDay)}</p>
      {prices && <p className="mt-1 text-amber-800">{xApiPricesText()}</p>}
    </div>
  )
}
