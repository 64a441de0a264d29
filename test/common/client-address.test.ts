import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clientAddress,
  normalizeAddress,
  proxyEntryProblem,
  trustedProxies,
} from '../../src/common/client-address.js';
import { bucketKeyOf } from '../../src/common/rate-limit/bucket-key.js';

const local = trustedProxies(['127.0.0.1', '::1']);
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
/** Public-looking IPv4 addresses: never loopback and never in 10/8, the trusted ranges used below. */
const publicV4 = fc
  .tuple(fc.integer({ min: 11, max: 126 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 }))
  .map((p) => p.join('.'));
const anyHop = fc.oneof(
  ipv4,
  fc.ipV6(),
  fc.string({ maxLength: 20 }).filter((s) => !s.includes(',')),
);

describe('normalizeAddress', () => {
  it('reads the forms proxies and sockets write', () => {
    expect(normalizeAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeAddress(' 203.0.113.7:51234 ')).toBe('203.0.113.7');
    expect(normalizeAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeAddress('[2001:DB8:0:0::1]:443')).toBe('2001:db8::1');
    expect(normalizeAddress('[::1]')).toBe('::1');
    expect(normalizeAddress('fe80::1%eth0')).toBe('fe80::1');
    for (const bad of ['', 'unknown', '_hidden', '1.2.3', '999.1.1.1', 'example.org', '[1.2.3.4']) {
      expect(normalizeAddress(bad), bad).toBeUndefined();
    }
  });

  it('gives one text per address, so spellings cannot buy separate buckets', () => {
    fc.assert(
      fc.property(fc.ipV6(), (v6) => {
        const n = normalizeAddress(v6);
        expect(n).toBeDefined();
        expect(normalizeAddress(n!.includes('.') ? n! : `[${n!.toUpperCase()}]:80`)).toBe(n);
      }),
    );
  });
});

describe('trusted proxies', () => {
  it('matches addresses and CIDR ranges of both families', () => {
    const m = trustedProxies(['10.0.0.0/8', '192.0.2.1', 'fd00::/8']);
    expect(m('10.200.3.4')).toBe(true);
    expect(m('11.0.0.1')).toBe(false);
    expect(m('192.0.2.1')).toBe(true);
    expect(m('192.0.2.2')).toBe(false);
    expect(m('fd12::1')).toBe(true);
    expect(m('fe80::1')).toBe(false);
  });

  it('names invalid entries', () => {
    expect(proxyEntryProblem('10.0.0.0/8')).toBeUndefined();
    expect(proxyEntryProblem('::1')).toBeUndefined();
    expect(proxyEntryProblem('10.0.0.0/33')).toMatch(/prefix length/);
    expect(proxyEntryProblem('fd00::/129')).toMatch(/prefix length/);
    for (const bad of ['localhost', '10.0.0.1:80', '[::1]', '10.0.0.0/8/1', '10.0.0.0/x', '']) {
      expect(proxyEntryProblem(bad), bad).toMatch(/not an IP address|prefix/);
    }
    expect(() => trustedProxies(['nope'])).toThrow(/not an IP address/);
  });
});

describe('clientAddress', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    fc.assert(
      fc.property(ipv4, fc.array(anyHop, { maxLength: 5 }), (peer, hops) => {
        expect(clientAddress(peer, hops.join(', '), undefined)).toBe(peer);
      }),
    );
  });

  it('is the socket peer when the peer is not a trusted proxy', () => {
    fc.assert(
      fc.property(publicV4, fc.array(anyHop, { maxLength: 5 }), (peer, hops) => {
        expect(clientAddress(peer, hops.join(', '), local)).toBe(peer);
      }),
    );
  });

  it('is the right-most untrusted hop behind a chain of trusted proxies', () => {
    const inner = trustedProxies(['127.0.0.1', '10.0.0.0/8']);
    fc.assert(
      fc.property(
        publicV4,
        fc.array(
          fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => `10.${p.join('.')}`),
          {
            maxLength: 4,
          },
        ),
        (client, proxies) => {
          expect(clientAddress('127.0.0.1', [client, ...proxies].join(', '), inner)).toBe(client);
        },
      ),
    );
  });

  it('cannot be moved by anything a client prepends to X-Forwarded-For', () => {
    fc.assert(
      fc.property(publicV4, fc.array(anyHop, { maxLength: 6 }), (real, forged) => {
        // The client sends its forged header; nginx appends the address it saw, and connects from ::1.
        const header = [...forged, real].join(', ');
        expect(clientAddress('::1', header, local)).toBe(real);
        // Several X-Forwarded-For header lines mean the same as one joined list.
        expect(clientAddress('::ffff:127.0.0.1', [forged.join(','), real], local)).toBe(real);
      }),
    );
  });

  it('falls back to the proxy itself when the proxy sent nothing usable', () => {
    expect(clientAddress('127.0.0.1', undefined, local)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '', local)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '203.0.113.9, unknown', local)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '::1, 127.0.0.1', local)).toBe('::1');
    expect(clientAddress(undefined, '203.0.113.9', local)).toBe('unknown');
  });
});

describe('bucketKeyOf', () => {
  it('charges IPv4 per address and IPv6 per /64', () => {
    expect(bucketKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(bucketKeyOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(bucketKeyOf('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(bucketKeyOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(bucketKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(bucketKeyOf('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('puts every address of one /64 in one bucket, and only those', () => {
    // Canonical IPv6 text from normalizeAddress is hex groups with at most one `::`.
    const groupsOf = (x: string) => {
      const [h = '', t] = x.split('::');
      const l = h ? h.split(':') : [];
      const r = t ? t.split(':') : [];
      return [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r];
    };
    fc.assert(
      fc.property(fc.ipV6(), fc.ipV6(), (a, b) => {
        const na = normalizeAddress(a)!;
        const nb = normalizeAddress(b)!;
        if (na.includes('.') || nb.includes('.')) return; // IPv4-mapped: charged as IPv4
        const mixed = normalizeAddress([...groupsOf(na).slice(0, 4), ...groupsOf(nb).slice(4)].join(':'))!;
        expect(bucketKeyOf(mixed)).toBe(bucketKeyOf(na));
        const samePrefix = groupsOf(na).slice(0, 4).join() === groupsOf(nb).slice(0, 4).join();
        expect(bucketKeyOf(na) === bucketKeyOf(nb)).toBe(samePrefix);
      }),
    );
  });
});
