// The outline a site change records is read by operators: it keeps the page's shape (tags, roles,
// fixed test-id words) and none of the people on it. X puts handles and ids inside test ids
// (`UserAvatar-Container-<handle>`), so every test-id segment that is not a known fixed word goes.
import { afterAll, describe, expect, it } from 'vitest'
import { BrowserPool } from '../src/browser/pool.ts'
import { outlinePage } from '../src/platforms/layout.ts'
import { BROWSER_SUITE } from './helpers/x-session.ts'

describe('the layout-change outline', BROWSER_SUITE, () => {
  const pool = new BrowserPool()
  afterAll(() => pool.close())

  it('keeps fixed test-id words and redacts handles, names and ids inside test ids', async () => {
    const page = await (await pool.newContext()).newPage()
    await page.setContent(`<!doctype html><body>
      <div data-testid="UserAvatar-Container-samantha_jones" role="presentation"></div>
      <div data-testid="UserAvatar-Container-jack"></div>
      <div data-testid="dm-conversation-item-1234:5678"></div>
      <div data-testid="message-text-9f1c2a7e-1b2c-4d3e-8f90-0a1b2c3d4e5f"></div>
      <div data-testid="conversation-ana.b.writes"></div>
      <input data-testid="dm-composer-textarea" type="text">
      <form data-testid="dm-composer-form-v2"></form>
      <div data-testid="primaryColumn"><span data-testid="UserName">Samantha Jones</span></div>
    </body>`)
    const outline = await outlinePage(page)
    expect(outline.lines).toEqual([
      'div[data-testid=UserAvatar-Container-#_#][role=presentation]',
      'div[data-testid=UserAvatar-Container-#]',
      'div[data-testid=dm-conversation-item-#:#]',
      'div[data-testid=message-text-#]',
      'div[data-testid=conversation-#.#.#]',
      'input[data-testid=dm-composer-textarea][type=text]',
      'form[data-testid=dm-composer-form-v2]',
      'div[data-testid=primaryColumn]',
      '  span[data-testid=UserName]',
    ])
    const text = outline.lines.join('\n')
    for (const secret of ['samantha', 'jack', 'ana', 'writes', 'Jones', '1234', '9f1c'])
      expect(text).not.toContain(secret)
  })
})
