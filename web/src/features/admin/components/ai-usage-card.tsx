// AI usage today: per workspace (all its members together), requests and tokens against the daily
// budget, calls the budget refused, and calls that failed (the feature fell back). Heaviest first.

import type { AiUsage } from '@reachflow/domain'
import { Sparkles } from 'lucide-react'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { formatNumber } from '../format'

export function AiUsageCard({ usage }: { usage: AiUsage }) {
  return (
    <Card data-testid="admin-ai-usage">
      <CardHeader className="flex flex-wrap items-center justify-between gap-2">
        <CardTitle className="flex items-center gap-2">
          <Sparkles className="size-4 text-brand-600" aria-hidden="true" /> AI usage today
        </CardTitle>
        <p className="text-xs text-slate-500">
          {usage.day} UTC · budget per workspace {formatNumber(usage.requestLimit)} requests,{' '}
          {formatNumber(usage.tokenLimit)} tokens
        </p>
      </CardHeader>
      {usage.workspaces.length === 0 ? (
        <CardBody className="py-8 text-center text-sm text-slate-500">No AI requests today</CardBody>
      ) : (
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-100 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-500">
              <tr>
                <th className="px-6 py-2.5">Workspace</th>
                <th className="px-3 py-2.5 text-right">Requests</th>
                <th className="px-3 py-2.5 text-right">Tokens</th>
                <th className="px-3 py-2.5 text-right">Refused</th>
                <th className="px-6 py-2.5 text-right">Failed</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {usage.workspaces.map((c) => (
                <tr key={c.workspaceId}>
                  <td className="max-w-[14rem] px-6 py-2.5">
                    <p className="truncate font-medium text-slate-900" title={c.name}>
                      {c.name}
                      {c.exhausted && (
                        <span className="ml-2 rounded-full bg-amber-50 px-2 py-0.5 text-[11px] font-medium text-amber-800 ring-1 ring-amber-600/25 ring-inset">
                          budget used up
                        </span>
                      )}
                    </p>
                    {c.ownerEmail && (
                      <p className="truncate text-xs text-slate-500" title={c.ownerEmail}>
                        {c.ownerEmail}
                      </p>
                    )}
                  </td>
                  <td className="px-3 py-2.5 text-right tabular-nums">
                    {formatNumber(c.requests)}
                    <span className="text-slate-400"> / {formatNumber(usage.requestLimit)}</span>
                  </td>
                  <td className="px-3 py-2.5 text-right tabular-nums">{formatNumber(c.tokens)}</td>
                  <td className="px-3 py-2.5 text-right tabular-nums">{formatNumber(c.denied)}</td>
                  <td className="px-6 py-2.5 text-right tabular-nums">{formatNumber(c.failures)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  )
}
