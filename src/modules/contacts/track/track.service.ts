import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { IdempotencyClaim } from '../../../platform/http/idempotency/idempotency-claim';
import { idempotencyKeyReused } from '../../../platform/http/idempotency/idempotency.errors';
import { IdempotencyService } from '../../../platform/http/idempotency/idempotency.service';
import { ContactsService } from '../contacts.service';
import { preservingSubscription } from '../consent/double-opt-in';
import { DoubleOptInService } from '../consent/double-opt-in.service';
import type { TrackEventDto } from '../dto/track-event.dto';

export interface TrackResult {
  contact: string;
  event: string;
  timestamp: string;
}

@Injectable()
export class TrackService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly contacts: ContactsService,
    private readonly idempotency: IdempotencyService,
    private readonly optIns: DoubleOptInService,
  ) {}

  /**
   * One statement: contact upsert (new ⇒ subscribed; existing keeps its state unless
   * `subscribed` is sent), a flip event if any, the tracked event, first-seen field types.
   * With an Idempotency-Key, that statement and the key's claim share one transaction.
   */
  async track(projectId: string, dto: TrackEventDto, claim?: IdempotencyClaim, publicKey = false): Promise<TrackResult> {
    // Double opt-in (the public key, or doubleOptIn: true): the confirmation email follows the commit.
    const { input, confirm } = await this.optIns.optIn(
      projectId,
      preservingSubscription({ email: dto.email, data: dto.data, topics: dto.topics, subscribed: dto.subscribed, defaultSubscribed: true, source: 'track' }, dto.preserveExistingSubscription),
      { publicKey, requested: dto.doubleOptIn },
    );
    const event = { name: dto.event.trim() };
    const tracked = claim
      ? await this.dataSource.transaction(async (em) => {
          const [claimed] = await this.idempotency.claimIn(em, [claim]);
          if (!claimed) return null;
          const upserted = await this.contacts.upsertWithEvent(projectId, input, event, em);
          await this.idempotency.recordIn(em, [{ claim, statusCode: 200, response: { success: true, data: resultOf(upserted) } }]);
          return upserted;
        })
      : await this.contacts.upsertWithEvent(projectId, input, event);
    if (!tracked) throw idempotencyKeyReused(claim!.key, await this.idempotency.find(projectId, claim!.key));
    await this.optIns.requestConfirmation(projectId, tracked, confirm);
    return resultOf(tracked);
  }
}

function resultOf(result: Awaited<ReturnType<ContactsService['upsertWithEvent']>>): TrackResult {
  const event = result.event!;
  return { contact: result.contact.id, event: event.id, timestamp: event.createdAt.toISOString() };
}
