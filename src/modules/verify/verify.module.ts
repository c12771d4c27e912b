import { Module } from '@nestjs/common';
import { DomainsModule } from '../domains';
import { VerifyController } from './verify.controller';
import { VerifyService } from './verify.service';

@Module({
  imports: [DomainsModule],
  controllers: [VerifyController],
  providers: [VerifyService],
})
export class VerifyModule {}
