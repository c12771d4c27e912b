import { Injectable, OnModuleInit } from '@nestjs/common';
import { PersonalDataRegistry } from '../contacts';
import { SegmentMembersRepository } from './segment-members.repository';

/**
 * A contact's segment memberships (contacts' `PersonalDataRegistry`): not exported (they follow
 * from its data and the segments' filters), erased with it. `member_count` is refreshed by the
 * next compute of each segment, as after any change of its members' data.
 */
@Injectable()
export class SegmentsPersonalData implements OnModuleInit {
  constructor(
    private readonly registry: PersonalDataRegistry,
    private readonly members: SegmentMembersRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register({ name: 'segmentMemberships', erase: async (projectId, subject, manager) => void (await this.members.removeContact(projectId, subject.id, manager)) });
  }
}
