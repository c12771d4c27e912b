import { join } from 'node:path';
import type { AppConfig } from '../../../config/config';
import type { ImageStorage } from './image-storage';
import { LocalImageStorage } from './local-image-storage';
import { S3ImageStorage } from './s3-image-storage';

/** The storage areas: uploaded images and received mail (`$DATA_DIR/<dir>` or `<prefix>/` in the bucket). */
const AREAS = { images: { dir: 'uploads', prefix: 'images' }, inbound: { dir: 'inbound', prefix: 'inbound' } } as const;
export type StorageArea = keyof typeof AREAS;

/** The configured storage (S3 when `S3_BUCKET` is set, else `$DATA_DIR`) for one area. */
export function createObjectStorage(config: AppConfig, area: StorageArea): ImageStorage {
  const { dir, prefix } = AREAS[area];
  return config.s3 ? new S3ImageStorage(config.s3, prefix) : new LocalImageStorage(join(config.dataDir, dir));
}

/** Releases what a storage holds open (the S3 client's sockets). */
export function closeObjectStorage(storage: ImageStorage): void {
  if (storage instanceof S3ImageStorage) storage.destroy();
}
