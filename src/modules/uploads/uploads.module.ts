import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { IMAGE_STORAGE, ImageStorage } from './storage/image-storage';
import { closeObjectStorage, createObjectStorage } from './storage/object-storage';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

@Module({
  controllers: [UploadsController],
  providers: [
    UploadsService,
    {
      provide: IMAGE_STORAGE,
      useFactory: (config: AppConfig): ImageStorage => createObjectStorage(config, 'images'),
      inject: [APP_CONFIG],
    },
  ],
})
export class UploadsModule implements OnApplicationShutdown {
  constructor(@Inject(IMAGE_STORAGE) private readonly storage: ImageStorage) {}

  onApplicationShutdown(): void {
    closeObjectStorage(this.storage);
  }
}
