/**
 * Where stored objects live: local disk by default, S3-compatible storage when `S3_BUCKET` is set.
 * One area per kind of object (`images` for uploads, `inbound` for received mail), each its own
 * directory under `$DATA_DIR` or key prefix in the bucket.
 */
export interface ImageStorage {
  readonly kind: 'local' | 's3';
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** null when no object has this key. */
  get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
}

export const IMAGE_STORAGE = Symbol('IMAGE_STORAGE');
