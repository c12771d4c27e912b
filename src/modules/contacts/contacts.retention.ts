import { Injectable, OnModuleInit } from '@nestjs/common';
import { RetentionRegistry } from '../projects';

/** Contacts in projects' `RetentionRegistry`: the storage view counts them (`contacts_project_id_idx`). */
@Injectable()
export class ContactsRetention implements OnModuleInit {
  constructor(private readonly registry: RetentionRegistry) {}

  onModuleInit(): void {
    this.registry.registerTable({ name: 'contacts', table: 'contacts', count: 'indexed' });
  }
}
