import { describe, expect, it } from 'vitest';
import {
  isPublicAddress,
  type Resolver,
  resolveTarget,
  urlShapeProblem,
} from '../../src/modules/webhooks/url-safety.ts';

describe('webhook URL safety', () => {
  it('refuses private, loopback, link-local, unique-local, CGNAT and unspecified addresses', () => {
    const refused = [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.254',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '::',
      '::1',
      'fd12:3456::1',
      'fc00::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      'not-an-address',
    ];
    for (const address of refused) expect([address, isPublicAddress(address)]).toEqual([address, false]);
  });

  it('refuses IPv6 forms that embed an IPv4 address: NAT64, IPv4-compatible, 6to4, Teredo', () => {
    const refused = [
      '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
      '64:ff9b::7f00:1',
      '64:ff9b::808:808', // even a public IPv4: the translator is not ours to vouch for
      '::7f00:1', // IPv4-compatible 127.0.0.1
      '::a9fe:a9fe',
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:a9fe:a9fe::',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
      '2001::1',
      '::ffff:0:7f00:1', // IPv4-translated 127.0.0.1
      '::ffff:0:127.0.0.1',
      '::ffff:0:a00:1', // IPv4-translated 10.0.0.1
      '::ffff:0:c0a8:101', // IPv4-translated 192.168.1.1
      '64:ff9b:1::a9fe:a9fe', // local-use NAT64
    ];
    for (const address of refused) expect([address, isPublicAddress(address)]).toEqual([address, false]);
  });

  it('accepts public IPv4 and IPv6 addresses', () => {
    const allowed = [
      '93.184.215.14',
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ];
    for (const address of allowed) expect([address, isPublicAddress(address)]).toEqual([address, true]);
  });

  it('accepts only http(s) URLs without credentials', () => {
    expect(urlShapeProblem('https://partner.example/hooks')).toBeNull();
    expect(urlShapeProblem('http://partner.example:8080/hooks?x=1')).toBeNull();
    expect(urlShapeProblem('ftp://partner.example/')).toBe('must use https or http');
    expect(urlShapeProblem('https://user:pass@partner.example/')).toBe('must not contain credentials');
    expect(urlShapeProblem('https://user@partner.example/')).toBe('must not contain credentials');
    expect(urlShapeProblem('partner.example/hooks')).toBe('must be an absolute http or https URL');
  });

  it('refuses a host when any of its addresses is not public, and connects to the one it checked', async () => {
    const resolver: Resolver = async (host) =>
      host === 'mixed.example'
        ? [
            { address: '93.184.215.14', family: 4 },
            { address: '10.0.0.5', family: 4 },
          ]
        : host === 'public.example'
          ? [{ address: '2606:4700::1111', family: 6 }]
          : [];
    const mixed = await resolveTarget(new URL('https://mixed.example/'), false, resolver);
    // the refusal does not say what the name resolved to
    expect(mixed).toEqual({ ok: false, reason: 'address not allowed (private, loopback or link-local)' });
    const good = await resolveTarget(new URL('https://public.example/'), false, resolver);
    expect(good).toEqual({ ok: true, address: { address: '2606:4700::1111', family: 6 } });
    const missing = await resolveTarget(new URL('https://nowhere.example/'), false, resolver);
    expect(missing).toEqual({ ok: false, reason: 'host not found' });
    // literals are judged without a lookup, IPv6 ones without their brackets
    const literal = await resolveTarget(new URL('http://[::ffff:127.0.0.1]:9/'), false, resolver);
    expect(literal.ok).toBe(false);
    const allowed = await resolveTarget(new URL('http://[::1]:9/'), true, resolver);
    expect(allowed).toEqual({ ok: true, address: { address: '::1', family: 6 } });
  });
});
