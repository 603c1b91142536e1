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
