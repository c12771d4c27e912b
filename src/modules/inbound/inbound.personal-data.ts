import { Injectable, OnModuleInit } from '@nestjs/common';
import { keysetBatches, PersonalDataRegistry } from '../contacts';
import { toInboundMessageResponse } from './dto/inbound-message.response';
import { InboundRepository } from './inbound.repository';
import { InboundService } from './inbound.service';

const BATCH = 100;

/** The `inboundMessages` section of a contact's personal data (contacts' `PersonalDataRegistry`): each as `GET /inbound/:id` gives it, newest first. */
@Injectable()
export class InboundPersonalData implements OnModuleInit {
  constructor(
    private readonly registry: PersonalDataRegistry,
    private readonly messages: InboundRepository,
    private readonly inbound: InboundService,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      name: 'inboundMessages',
      export: (projectId, subject) =>
        keysetBatches<unknown, { at: string; id: string }>(async (after) => {
          const { rows, next } = await this.messages.fromContact(projectId, subject, after, BATCH);
          return { items: rows.map(toInboundMessageResponse), next };
        }),
      erase: (projectId, subject, manager) => this.inbound.eraseFromContact(projectId, subject, manager),
    });
  }
}
