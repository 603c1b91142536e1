// A one-page PDF of an invoice (the `invoice_pdf` link), written by hand: the PDF format needs
// only five objects and a cross-reference table for a page of Helvetica text.
import { formatAmount, type Invoice } from './objects.ts'

const pdfText = (value: string) => value.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`)

export function invoicePdf(invoice: Invoice): Buffer {
  const day = (s: number) => new Date(s * 1000).toISOString().slice(0, 10)
  const lines = [
    `Invoice ${invoice.number ?? ''}`,
    `Date: ${day(invoice.created)}    Status: ${invoice.status}`,
    `Billed to: ${invoice.customer_email ?? invoice.customer}`,
    '',
    ...invoice.lines.data.map((l) => `${l.description}    ${formatAmount(l.amount, l.currency)}`),
    '',
    `Total: ${formatAmount(invoice.total, invoice.currency)}`,
    `Amount paid: ${formatAmount(invoice.amount_paid, invoice.currency)}`,
  ]
  const content = [
    'BT',
    '/F1 12 Tf',
    '56 780 Td',
    '16 TL',
    ...lines.map((l) => `(${pdfText(l)}) '`),
    'ET',
  ].join('\n')
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out)
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}
