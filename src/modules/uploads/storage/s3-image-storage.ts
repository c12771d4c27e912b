import type * as S3 from '@aws-sdk/client-s3';
import type { AppConfig } from '../../../config/config';
import { sdks } from '../../../platform/sdks';
import { contentTypeOfKey } from '../upload-key';
import type { ImageStorage } from './image-storage';

/** Any S3-compatible service (AWS, MinIO, R2, …): objects under `<prefix>/` (`images`, `inbound`) in `S3_BUCKET`. */
export class S3ImageStorage implements ImageStorage {
  readonly kind = 's3' as const;
  private readonly client: S3.S3Client;

  constructor(
    private readonly s3: NonNullable<AppConfig['s3']>,
    private readonly prefix = 'images',
  ) {
    this.client = new (sdks.s3().S3Client)({
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: s3.forcePathStyle,
      credentials: s3.accessKeyId && s3.secretAccessKey ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined,
      // Checksums only where S3 requires them: several S3-compatible services reject the newer defaults.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    await this.client.send(new (sdks.s3().PutObjectCommand)({ Bucket: this.s3.bucket, Key: `${this.prefix}/${key}`, Body: bytes, ContentType: contentType }));
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    try {
      const object = await this.client.send(new (sdks.s3().GetObjectCommand)({ Bucket: this.s3.bucket, Key: `${this.prefix}/${key}` }));
      const bytes = Buffer.from(await object.Body!.transformToByteArray());
      return { bytes, contentType: contentTypeOfKey(key) };
    } catch (error) {
      if (error instanceof sdks.s3().NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new (sdks.s3().DeleteObjectCommand)({ Bucket: this.s3.bucket, Key: `${this.prefix}/${key}` }));
  }

  destroy(): void {
    this.client.destroy();
  }
}
