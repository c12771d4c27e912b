/** Where uploaded images live: local disk by default, S3-compatible storage when `S3_BUCKET` is set. */
export interface ImageStorage {
  readonly kind: 'local' | 's3';
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** null when no object has this key. */
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
}

export const IMAGE_STORAGE = Symbol('IMAGE_STORAGE');
