import assert from 'node:assert/strict'
import { isPublicHost, parseIpAddress, parseUrlHost } from './host.ts'

const read = (host: string) => {
  const parsed = parseUrlHost(host)
  return parsed && `${parsed.kind} ${parsed.address}`
}

Deno.test('IPv4 is read like inet_aton and browsers: octal, hex, one to four parts, a trailing dot', () => {
  assert.equal(read('012.63.0.1'), 'ipv4 10.63.0.1') // the octal bypass: not 12.63.0.1
  assert.equal(read('2130706433'), 'ipv4 127.0.0.1')
  assert.equal(read('0x7f000001'), 'ipv4 127.0.0.1')
  assert.equal(read('0X7F.1'), 'ipv4 127.0.0.1')
  assert.equal(read('127.1'), 'ipv4 127.0.0.1')
  assert.equal(read('10.1.258'), 'ipv4 10.1.1.2')
  assert.equal(read('127.0.0.1.'), 'ipv4 127.0.0.1')
  assert.equal(read('0377.0xff.255.0'), 'ipv4 255.255.255.0')
  assert.equal(read('0x.0x.0x.0x'), 'ipv4 0.0.0.0')
  assert.equal(read('4294967295'), 'ipv4 255.255.255.255')
  for (const refused of [
    '09.1.1.1',
    '1.2.3.4.5',
    '4294967296',
    '256.1.1.1',
    '1.2.3.0x100',
    'foo.0x1',
    '1..2',
  ])
    assert.equal(read(refused), null, refused)
})

Deno.test('IPv6 is read and printed as browsers do; zone ids and leading zeros in an IPv4 tail are refused', () => {
  assert.equal(read('[::ffff:0:127.0.0.1]'), 'ipv6 ::ffff:0:7f00:1')
  assert.equal(read('[2002:7f00:1::]'), 'ipv6 2002:7f00:1::')
  assert.equal(read('[::127.0.0.1]'), 'ipv6 ::7f00:1')
  assert.equal(read('[1:0:0:1:0:0:0:1]'), 'ipv6 1:0:0:1::1')
  assert.equal(read('[2001:4860:4860:0:0:0:0:8888]'), 'ipv6 2001:4860:4860::8888')
  for (const refused of [
    '[fe80::1%25eth0]',
    '[::ffff:127.0.0.01]',
    '[1:2:3:4:5:6:7:8:9]',
    '[::1',
    '[1::2::3]',
  ])
    assert.equal(read(refused), null, refused)
})

Deno.test('names are plain lowercase ASCII; percent-encoding, IDNA input and underscores are refused', () => {
  assert.equal(read('Proxy.Example.COM.'), 'domain proxy.example.com')
  assert.equal(read('xn--mnchen-3ya.de'), 'domain xn--mnchen-3ya.de')
  for (const refused of [
    '%31%32%37.0.0.1',
    '１２７.0.0.1',
    'ⓛⓞⓒⓐⓛⓗⓞⓢⓣ',
    'a_b.example.com',
    'a..b',
    'proxy.example.com..',
  ])
    assert.equal(read(refused), null, refused)
})

Deno.test('only public unicast is public: every embedding of a private IPv4 in IPv6 is refused', () => {
  const publicOf = (text: string) => {
    const host = parseUrlHost(text)
    assert.ok(host, text)
    return isPublicHost(host)
  }
  for (const refused of [
    '012.63.0.1',
    '[::ffff:0:127.0.0.1]', // SIIT
    '[2002:7f00:1::]', // 6to4 of 127.0.0.1
    '[2002:0808:0808::]', // 6to4 of anything
    '[64:ff9b::7f00:1]', // NAT64
    '[64:ff9b:1::a00:1]', // local-use NAT64
    '[2001:0:4136:e378:8000:63bf:3fff:fdd2]', // Teredo
    '[::127.0.0.1]', // IPv4-compatible
    '[::ffff:127.0.0.1]',
    '[::ffff:8.8.8.8]', // mapped: a proxy given as IPv4 is written as IPv4
    '[fec0::1]',
    '[2001:db8::1]',
    '[3fff::1]',
    '[5f00::1]',
    '2130706433',
    '0x7f000001',
    '127.1',
    '192.0.0.170',
  ])
    assert.equal(publicOf(refused), false, refused)
  for (const ok of ['8.8.8.8', '12.63.0.1', '[2001:4860:4860::8888]', '[2a00:1450::1]'])
    assert.equal(publicOf(ok), true, ok)
})

Deno.test('resolver answers are read with the same parser', () => {
  assert.equal(parseIpAddress('10.0.0.8')?.address, '10.0.0.8')
  assert.equal(parseIpAddress('::ffff:10.0.0.8')?.address, '::ffff:a00:8')
  assert.equal(parseIpAddress('fe80::1%eth0'), null)
  assert.equal(parseIpAddress('proxy.example.com'), null)
})
