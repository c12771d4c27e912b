import { Injectable } from '@nestjs/common';
import { ContactsService } from '../../contacts/contacts.service';
import type { TrackEventDto } from '../dto/track-event.dto';

export interface TrackResult {
  contact: string;
  event: string;
  timestamp: string;
}

@Injectable()
export class TrackService {
  constructor(private readonly contacts: ContactsService) {}

  /**
   * One statement: contact upsert (new ⇒ subscribed; existing keeps its state unless
   * `subscribed` is sent), a flip event if any, the tracked event, first-seen field types.
   */
  async track(projectId: string, dto: TrackEventDto): Promise<TrackResult> {
    const result = await this.contacts.upsertWithEvent(
      projectId,
      { email: dto.email, data: dto.data, subscribed: dto.subscribed, defaultSubscribed: true, source: 'track' },
      { name: dto.event.trim() },
    );
    const event = result.event!;
    return { contact: result.contact.id, event: event.id, timestamp: event.createdAt.toISOString() };
  }
}
