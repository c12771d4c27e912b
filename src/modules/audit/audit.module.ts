import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth';
import { AuditInterceptor } from './audit.interceptor';
import { AuditLogController } from './audit-log.controller';
import { AuditLogRepository } from './audit-log.repository';
import { AuditLogService } from './audit-log.service';
import { AuditEntry } from './entities/audit-entry.entity';
import { AuditPurge } from './worker/audit-purge';

/** The project's audit log: `@Audited` handlers are recorded by the global interceptor; `GET /audit-log` lists them. */
@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([AuditEntry])],
  controllers: [AuditLogController],
  providers: [AuditLogRepository, AuditLogService, AuditPurge, { provide: APP_INTERCEPTOR, useClass: AuditInterceptor }],
})
export class AuditModule {}
