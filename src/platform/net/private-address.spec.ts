import { isPrivateAddress } from './private-address';

describe('isPrivateAddress', () => {
  it('refuses private, loopback, link-local and reserved addresses, also inside IPv6', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255', '192.88.99.1', '198.18.0.1', '::1', '::', 'fe80::1', 'fe80::1%eth0', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '[::ffff:10.0.0.1]', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', 'not-an-ip', '']) {
      expect({ a, refused: isPrivateAddress(a) }).toEqual({ a, refused: true });
    }
  });

  it('refuses the IPv6 forms that carry or reach an IPv4 address: IPv4-compatible, NAT64, 6to4, Teredo', () => {
    for (const a of ['[::127.0.0.1]', '::7f00:1', '::10.0.0.1', '64:ff9b::8.8.8.8', '64:ff9b::808:808', '64:ff9b:1::1', '2002:808:808::1', '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:db8::1', '2001:2::1', '2001:20::1', '100::1', 'ff02::1', 'fec0::1']) {
      expect({ a, refused: isPrivateAddress(a) }).toEqual({ a, refused: true });
    }
  });

  it('lets public addresses through', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '[2a00:1450:4001:80b::200e]', '::ffff:8.8.8.8']) {
      expect({ a, refused: isPrivateAddress(a) }).toEqual({ a, refused: false });
    }
  });
});
