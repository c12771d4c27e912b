import { Inject, Injectable } from '@nestjs/common';
import { fileTypeFromBuffer } from 'file-type';
import type { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { IMAGE_STORAGE, ImageStorage } from './storage/image-storage';
import { IMAGE_TYPES, isUploadKey, newUploadKey } from './upload-key';
import { imageNotFound, missingImage, unsupportedImage } from './uploads.errors';

export interface UploadedImage {
  buffer: Buffer;
  size: number;
}

@Injectable()
export class UploadsService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    @Inject(IMAGE_STORAGE) private readonly storage: ImageStorage,
  ) {}

  /** The type comes from the bytes (magic numbers), never from the file name or the client's Content-Type. */
  async upload(file: UploadedImage | undefined): Promise<{ url: string }> {
    if (!file || file.size === 0) throw missingImage();
    const detected = await fileTypeFromBuffer(file.buffer);
    const contentType = detected ? IMAGE_TYPES[detected.ext] : undefined;
    if (!detected || !contentType) throw unsupportedImage(detected?.mime ?? null);
    const key = newUploadKey(detected.ext);
    await this.storage.put(key, file.buffer, contentType);
    return { url: `${this.config.publicUrl}/uploads/${key}` };
  }

  async read(key: string): Promise<{ bytes: Buffer; contentType: string }> {
    if (!isUploadKey(key)) throw imageNotFound();
    const image = await this.storage.get(key);
    if (!image) throw imageNotFound();
    return image;
  }
}
