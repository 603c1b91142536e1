import assert from 'node:assert/strict'
import { isPublicAddress, parseProxy, proxyAddress, proxyProblem, resolvedProblem } from './proxy.ts'

Deno.test('proxy forms are parsed into host, port and credentials', () => {
  assert.deepEqual(parseProxy('alice:s3cret@proxy.example.com:3128'), {
    scheme: 'http',
    host: 'proxy.example.com',
    port: 3128,
    username: 'alice',
    password: 's3cret',
  })
  assert.deepEqual(parseProxy('socks5://bob:p%40ss@Proxy.Example:1080'), {
    scheme: 'socks5',
    host: 'proxy.example',
    port: 1080,
    username: 'bob',
    password: 'p@ss',
  })
  assert.deepEqual(parseProxy('203.0.113.7:8080:carol:pw'), {
    scheme: 'http',
    host: '203.0.113.7',
    port: 8080,
    username: 'carol',
    password: 'pw',
  })
  assert.equal(parseProxy('203.0.113.7:8080')?.username, null)
  assert.equal(parseProxy('not a proxy'), null)
  assert.equal(parseProxy('ftp://h.example:8080'), null)
  assert.equal(proxyAddress({ scheme: 'http', host: 'p.example', port: 3128 }), 'p.example:3128')
  assert.equal(
    proxyAddress({ scheme: 'socks5', host: '2001:4860::1', port: 1080 }),
    'socks5://[2001:4860::1]:1080',
  )
})

Deno.test('private, loopback, link-local, metadata and reserved addresses are not public', () => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    'ff02::1',
  ])
    assert.equal(isPublicAddress(address), false, address)
  for (const address of ['8.8.8.8', '203.0.113.7', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888'])
    assert.equal(isPublicAddress(address), true, address)
})

Deno.test('a proxy must be a public host on a proxy port; names are re-checked after lookup', () => {
  assert.equal(proxyProblem({ host: 'proxy.example.com', port: 3128 }), null)
  assert.equal(proxyProblem({ host: '203.0.113.7', port: 10_000 }), null)
  assert.match(proxyProblem({ host: '127.0.0.1', port: 3128 }) ?? '', /private or local address/)
  assert.match(proxyProblem({ host: '169.254.169.254', port: 8080 }) ?? '', /private or local/)
  assert.match(proxyProblem({ host: 'localhost', port: 8080 }) ?? '', /private or local/)
  assert.match(proxyProblem({ host: 'db', port: 8080 }) ?? '', /private or local/)
  assert.match(proxyProblem({ host: 'proxy.example.com', port: 5432 }) ?? '', /not a proxy port/)
  assert.match(proxyProblem({ host: 'proxy.example.com', port: 22 }) ?? '', /not a proxy port/)
  assert.equal(resolvedProblem('proxy.example.com', ['203.0.113.9']), null)
  assert.match(resolvedProblem('evil.example.com', ['203.0.113.9', '10.0.0.5']) ?? '', /\(10\.0\.0\.5\)/)
  assert.match(resolvedProblem('gone.example.com', []) ?? '', /could not be found/)
})

Deno.test('the host is read as the browser will read it, and that canonical form is what is kept', () => {
  assert.deepEqual(parseProxy('alice:pw@012.63.0.1:8080'), {
    scheme: 'http',
    host: '10.63.0.1',
    hostAsWritten: '012.63.0.1',
    port: 8080,
    username: 'alice',
    password: 'pw',
  })
  assert.equal(parseProxy('socks5://[2001:4860:4860:0:0:0:0:8888]:1080')?.host, '2001:4860:4860::8888')
  assert.equal(parseProxy('0x7f.1:8080:user:pw')?.host, '127.0.0.1')
  assert.equal(parseProxy('09.1.1.1:8080'), null) // a browser refuses it: so do we
  assert.equal(parseProxy('%31%32%37.0.0.1:8080'), null)
  assert.equal(parseProxy('[fe80::1%25eth0]:8080'), null)
  assert.equal(
    proxyAddress(parseProxy('Proxy.Example.com.:3128') ?? { scheme: 'http', host: '', port: 0 }),
    'proxy.example.com:3128',
  )
})

Deno.test('the bypasses found by review are refused, naming the address they reach', () => {
  const problem = (text: string) => {
    const parts = parseProxy(text)
    return (parts ? proxyProblem(parts) : 'unparsed') ?? 'accepted'
  }
  assert.equal(
    problem('012.63.0.1:8080'),
    "Proxy 012.63.0.1 points at a private or local address (10.63.0.1). Use your proxy provider's public host.",
  )
  for (const bypass of [
    '[::ffff:0:127.0.0.1]:8080',
    '[2002:7f00:1::]:8080',
    '[64:ff9b::a9fe:a9fe]:8080',
    '[2001:0:4136:e378:8000:63bf:3fff:fdd2]:8080',
    '[::169.254.169.254]:8080',
    '2130706433:8080',
    '0x7f000001:8080',
    '127.1:8080',
    '169.254.169.254.:8080',
    'localhost.:8080',
    'metadata.google.internal:8080',
    'router.home.arpa:8080',
  ])
    assert.match(problem(bypass), /private or local address/, bypass)
  // the same checks take a host written any way, not only one parseProxy produced
  assert.match(proxyProblem({ host: '0177.0.0.1', port: 8080 }) ?? '', /\(127\.0\.0\.1\)/)
  assert.equal(isPublicAddress('[::ffff:0:127.0.0.1]'), false)
  assert.match(resolvedProblem('evil.example.com', ['::ffff:0:7f00:1']) ?? '', /private or local/)
})
