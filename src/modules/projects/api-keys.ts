import { randomHex, sha256Hex } from '../../platform/crypto';

export interface KeyPair {
  secret: string;
  public: string;
}

/** `sk_`/`pk_` followed by 64 hex characters. */
export const API_KEY_PATTERN = /^(sk|pk)_[0-9a-f]{64}$/;

export function generateKeyPair(): KeyPair {
  return { secret: `sk_${randomHex(32)}`, public: `pk_${randomHex(32)}` };
}

export const keyPrefix = (key: string): string => key.slice(0, 10);

export function keyColumns(keys: KeyPair) {
  return {
    secretKeyHash: sha256Hex(keys.secret),
    publicKeyHash: sha256Hex(keys.public),
    secretPrefix: keyPrefix(keys.secret),
    publicPrefix: keyPrefix(keys.public),
  };
}
