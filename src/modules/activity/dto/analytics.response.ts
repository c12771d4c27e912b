import { ApiProperty } from '@nestjs/swagger';
import type { TimeseriesPoint } from '../analytics.service';

export class TimeseriesPointSchema implements TimeseriesPoint {
  @ApiProperty({ description: 'Start of the bucket (ISO 8601, UTC)', type: String })
  date!: string;
  @ApiProperty({ description: 'Emails sent in the bucket', type: 'integer' })
  sent!: number;
  @ApiProperty({ description: 'Deliveries', type: 'integer' })
  delivered!: number;
  @ApiProperty({ description: 'Opens', type: 'integer' })
  opened!: number;
  @ApiProperty({ description: 'Clicks', type: 'integer' })
  clicked!: number;
  @ApiProperty({ description: 'Bounces', type: 'integer' })
  bounced!: number;
}

export class TimeseriesSchema {
  @ApiProperty({ description: 'Bucket size', enum: ['hour', 'day'] })
  interval!: string;
  @ApiProperty({ description: 'Every bucket from `from` to `to`, oldest first, zeros included', type: () => [TimeseriesPointSchema] })
  data!: TimeseriesPointSchema[];
}

export class TopCampaignSchema {
  @ApiProperty({ description: 'Campaign (UUID)', type: String })
  id!: string;
  @ApiProperty({ description: 'Campaign name; null once the campaign is deleted', type: String, nullable: true })
  name!: string | null;
  @ApiProperty({ description: 'Emails of the campaign created in the range that were sent, opened or clicked (per `metric`)', type: 'integer' })
  value!: number;
}

export class TopCampaignsSchema {
  @ApiProperty({ description: 'Campaigns, highest value first', type: () => [TopCampaignSchema] })
  data!: TopCampaignSchema[];
}

export class TopEventSchema {
  @ApiProperty({ description: 'Event name (outside the email lifecycle)', type: String })
  name!: string;
  @ApiProperty({ description: 'Times recorded in the range', type: 'integer' })
  count!: number;
}

export class TopEventsSchema {
  @ApiProperty({ description: 'Most frequent first', type: () => [TopEventSchema] })
  data!: TopEventSchema[];
}
