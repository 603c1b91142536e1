import { describe, expect, it } from 'vitest'
import { FormParseError, parseForm } from './form.ts'

describe('parseForm', () => {
  it('builds nested objects and arrays from bracket keys, as stripe-node encodes them', () => {
    const body =
      'mode=subscription&line_items[0][quantity]=3&line_items[0][price_data][currency]=usd' +
      '&line_items[0][price_data][recurring][interval]=month&metadata[planType]=growth&expand[0]=customer&expand[1]=line_items'
    expect(parseForm(body)).toEqual({
      mode: 'subscription',
      line_items: [{ quantity: '3', price_data: { currency: 'usd', recurring: { interval: 'month' } } }],
      metadata: { planType: 'growth' },
      expand: ['customer', 'line_items'],
    })
  })

  it('accepts empty brackets as appends and percent-encoded values', () => {
    expect(
      parseForm('expand%5B%5D=a&expand[]=b&success_url=http%3A%2F%2Fx%2F%3Fid%3D%7BCHECKOUT_SESSION_ID%7D'),
    ).toEqual({
      expand: ['a', 'b'],
      success_url: 'http://x/?id={CHECKOUT_SESSION_ID}',
    })
  })

  it('rejects prototype keys and conflicting shapes instead of polluting objects', () => {
    expect(() => parseForm('__proto__[x]=1')).toThrow(FormParseError)
    expect(() => parseForm('metadata[constructor][x]=1')).toThrow(FormParseError)
    expect(() => parseForm('a=1&a[b]=2')).toThrow(FormParseError)
    expect(({} as Record<string, unknown>).x).toBeUndefined()
  })
})
