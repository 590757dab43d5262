// isPublicAddress: only globally routable unicast addresses may be reached by the hub; every internal form is refused.
import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../src/websub/address.js';

const publicAddresses: [string, string][] = [
  ['8.8.8.8', 'public IPv4'],
  ['1.1.1.1', 'public IPv4'],
  ['93.184.216.34', 'public IPv4'],
  ['100.63.255.255', 'just below CGNAT 100.64/10'],
  ['100.128.0.1', 'just above CGNAT 100.64/10'],
  ['172.15.255.255', 'just below 172.16/12'],
  ['172.32.0.1', 'just above 172.16/12'],
  ['169.253.255.255', 'just below link-local 169.254/16'],
  ['11.0.0.1', 'just above 10/8'],
  ['223.255.255.254', 'just below multicast 224/4'],
  ['2606:4700:4700::1111', 'public IPv6'],
  ['2001:4860:4860::8888', 'public IPv6'],
  ['2001:4860:4860:0:0:0:0:8888', 'public IPv6, uncompressed'],
  ['2a00:1450:4001:82b::200e', 'public IPv6'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public address, dotted'],
  ['::ffff:808:808', 'IPv4-mapped public address, hex'],
  ['64:ff9b::8.8.8.8', 'NAT64 of a public address'],
  ['[2606:4700:4700::1111]', 'bracketed public IPv6'],
  ['[8.8.8.8]', 'bracketed public IPv4'],
];

const nonPublicAddresses: [string, string][] = [
  // IPv4
  ['127.0.0.1', 'loopback'],
  ['168.63.129.16', "a cloud's host endpoint (Azure wireserver)"],
  ['::ffff:168.63.129.16', 'the same, IPv4-mapped'],
  ['5f00::1', 'SRv6 SID 5f00::/16'],
  ['5f00:ffff::1', 'SRv6 SID, end of the range'],
  ['4000::1', 'outside 2000::/3, the only global unicast space'],
  ['1fff:ffff::1', 'just below 2000::/3'],
  ['127.255.255.254', 'loopback 127/8'],
  ['10.0.0.1', 'private 10/8'],
  ['10.255.255.255', 'private 10/8'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.255', 'private 172.16/12'],
  ['192.168.0.1', 'private 192.168/16'],
  ['192.168.255.255', 'private 192.168/16'],
  ['169.254.0.1', 'link-local'],
  ['169.254.169.254', 'cloud metadata (link-local)'],
  ['100.64.0.1', 'CGNAT 100.64/10'],
  ['100.127.255.255', 'CGNAT 100.64/10'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', '"this network" 0/8'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved 240/4'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast (SSDP)'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['198.51.100.1', 'documentation TEST-NET-2'],
  ['203.0.113.1', 'documentation TEST-NET-3'],
  ['198.18.0.1', 'benchmarking'],
  ['192.0.0.170', 'IETF protocol assignments'],
  // IPv6
  ['::1', 'IPv6 loopback'],
  ['0:0:0:0:0:0:0:1', 'IPv6 loopback, uncompressed'],
  ['::', 'IPv6 unspecified'],
  ['fc00::1', 'unique-local fc00::/7'],
  ['fd12:3456:789a::1', 'unique-local fd00::/8'],
  ['fe80::1', 'link-local fe80::/10'],
  ['febf:ffff::1', 'link-local fe80::/10, upper end'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast, link scope'],
  ['ff0e::1', 'multicast, global scope'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['3fff::1', 'documentation 3fff::/20 (RFC 9637, IANA special-purpose registry: not globally reachable)'],
  ['2002:7f00:1::', '6to4 embedding 127.0.0.1'],
  ['::7f00:1', 'IPv4-compatible ::127.0.0.1'],
  // IPv4-mapped IPv6
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['::FFFF:7F00:0001', 'IPv4-mapped loopback, upper-case hex with leading zeros'],
  ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped loopback, uncompressed'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private, dotted'],
  ['::ffff:a00:1', 'IPv4-mapped private, hex'],
  ['::ffff:169.254.169.254', 'IPv4-mapped cloud metadata'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped cloud metadata, hex'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated loopback'],
  // NAT64
  ['64:ff9b::127.0.0.1', 'NAT64 of loopback, dotted'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback, hex'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of cloud metadata'],
  ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
  ['64:ff9b::', 'NAT64 of 0.0.0.0 (canonical form, as getaddrinfo writes it)'],
  ['64:ff9b::1', 'NAT64 of 0.0.0.1 (canonical form, as getaddrinfo writes it)'],
  ['64:ff9b:0:0:0:0:7f00:1', 'NAT64 of loopback, uncompressed'],
  ['64:ff9b:1::a00:1', 'local-use NAT64 64:ff9b:1::/48'],
  // bracketed and zone-id forms
  ['[::1]', 'bracketed loopback'],
  ['[::ffff:127.0.0.1]', 'bracketed IPv4-mapped loopback'],
  ['[fe80::1]', 'bracketed link-local'],
  ['fe80::1%eth0', 'link-local with zone id'],
  ['[fe80::1%25eth0]', 'bracketed link-local with URL-encoded zone id'],
  ['::1%lo', 'loopback with zone id'],
  // not an address at all
  ['', 'empty'],
  ['localhost', 'a name'],
  ['example.com', 'a name'],
  ['1.2.3', 'three octets'],
  ['256.1.1.1', 'octet out of range'],
  ['01.1.1.1', 'octet with a leading zero'],
  ['0x7f.0.0.1', 'hex octet'],
  ['2130706433', 'IPv4 as one decimal number'],
  [' 8.8.8.8', 'leading space'],
  ['8.8.8.8\n', 'trailing newline'],
  ['::ffff:1.2.3.4.5', 'five octets'],
  ['2001:db8::g', 'not hex'],
  ['1:2:3:4:5:6:7:8:9', 'nine groups'],
];

describe('isPublicAddress', () => {
  it.each(publicAddresses)('accepts %j (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(nonPublicAddresses)('refuses %j (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});
