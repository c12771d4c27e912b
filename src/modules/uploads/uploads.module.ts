import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { IMAGE_STORAGE, ImageStorage } from './storage/image-storage';
import { LocalImageStorage } from './storage/local-image-storage';
import { S3ImageStorage } from './storage/s3-image-storage';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

@Module({
  controllers: [UploadsController],
  providers: [
    UploadsService,
    {
      provide: IMAGE_STORAGE,
      useFactory: (config: AppConfig): ImageStorage => (config.s3 ? new S3ImageStorage(config.s3) : new LocalImageStorage(join(config.dataDir, 'uploads'))),
      inject: [APP_CONFIG],
    },
  ],
})
export class UploadsModule implements OnApplicationShutdown {
  constructor(@Inject(IMAGE_STORAGE) private readonly storage: ImageStorage) {}

  onApplicationShutdown(): void {
    if (this.storage instanceof S3ImageStorage) this.storage.destroy();
  }
}
