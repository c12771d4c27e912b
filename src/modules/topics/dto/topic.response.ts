import { ApiProperty } from '@nestjs/swagger';
import { TOPIC_DEFAULTS, type Topic, type TopicDefault } from '../entities/topic.entity';

export class TopicResponse {
  @ApiProperty({ description: 'Identifier (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Name', type: String })
  name!: string;
  @ApiProperty({ description: 'Key in contacts\' `topics` and in filters (`topics.<slug>`)', type: String })
  slug!: string;
  @ApiProperty({ description: 'Description', type: String, nullable: true })
  description!: string | null;
  @ApiProperty({ description: 'Membership default: `opt_out` (member unless chose false) or `opt_in` (member only if chose true)', enum: TOPIC_DEFAULTS })
  default!: TopicDefault;
  @ApiProperty({ description: 'Shown on the preference centre', type: Boolean })
  public!: boolean;
  @ApiProperty({ description: 'Creation time (ISO 8601)', type: String })
  createdAt!: string;
  @ApiProperty({ description: 'Last change (ISO 8601)', type: String })
  updatedAt!: string;
}

export function toTopicResponse(topic: Topic): TopicResponse {
  return {
    id: topic.id,
    name: topic.name,
    slug: topic.slug,
    description: topic.description,
    default: topic.subscriptionDefault,
    public: topic.public,
    createdAt: new Date(topic.createdAt).toISOString(),
    updatedAt: new Date(topic.updatedAt).toISOString(),
  };
}
