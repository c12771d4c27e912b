import { isPrivateAddress } from './private-address';

describe('isPrivateAddress', () => {
  it('refuses private, loopback, link-local and reserved addresses, also inside IPv6', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '[::ffff:10.0.0.1]', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', 'not-an-ip']) {
      expect({ a, refused: isPrivateAddress(a) }).toEqual({ a, refused: true });
    }
  });

  it('lets public addresses through', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect({ a, refused: isPrivateAddress(a) }).toEqual({ a, refused: false });
    }
  });
});
