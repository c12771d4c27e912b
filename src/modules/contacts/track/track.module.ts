import { Module } from '@nestjs/common';
import { ContactsModule } from '../contacts.module';
import { TrackController } from './track.controller';
import { TrackService } from './track.service';

/** Separate from EventsModule because tracking needs contacts, and contacts need events. */
@Module({
  imports: [ContactsModule],
  controllers: [TrackController],
  providers: [TrackService],
})
export class TrackModule {}
