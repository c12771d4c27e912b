import { Module } from '@nestjs/common';
import { TopicsModule } from '../topics';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContactsModule } from '../contacts';
import { EventsModule } from '../events';
import { AudienceService } from './audience.service';
import { Segment } from './entities/segment.entity';
import { SegmentMember } from './entities/segment-member.entity';
import { SegmentRecomputeScheduler } from './worker/segment-recompute.scheduler';
import { SegmentMembersRepository } from './segment-members.repository';
import { SegmentsController } from './segments.controller';
import { SegmentsRepository } from './segments.repository';
import { SegmentsService } from './segments.service';
import { SegmentsSelections } from './segments.selections';
import { SegmentsUsage } from './segments.usage';
import { SegmentsPersonalData } from './segments.personal-data';

@Module({
  imports: [TypeOrmModule.forFeature([Segment, SegmentMember]), ContactsModule, EventsModule, TopicsModule],
  controllers: [SegmentsController],
  providers: [SegmentsRepository, SegmentMembersRepository, AudienceService, SegmentsService, SegmentRecomputeScheduler, SegmentsUsage, SegmentsPersonalData, SegmentsSelections],
  exports: [AudienceService, SegmentsService],
})
export class SegmentsModule {}
