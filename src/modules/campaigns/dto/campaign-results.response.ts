import { ApiProperty } from '@nestjs/swagger';
import { RECIPIENT_STATUSES, type RecipientStatus, TIMELINE_INTERVALS, type TimelineInterval } from '../campaign-results.rows';

export class CampaignRecipient {
  @ApiProperty({ description: 'The email id', type: String })
  emailId!: string;
  @ApiProperty({ description: 'The contact (null when it was deleted since)', type: String, nullable: true })
  contactId!: string | null;
  @ApiProperty({ description: 'The address the email went to', type: String })
  email!: string;
  @ApiProperty({ description: 'The furthest the recipient got: complained > bounced > unsubscribed > clicked > opened > delivered > sent; else the email state', enum: RECIPIENT_STATUSES })
  status!: RecipientStatus;
  @ApiProperty({ description: 'Why it was skipped (unsubscribed, suppressed, erased, invalid_email, render_error, cancelled); null unless skipped', type: String, nullable: true })
  skipReason!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) sentAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt!: string | null;
  @ApiProperty({ description: 'First open', type: String, format: 'date-time', nullable: true }) openedAt!: string | null;
  @ApiProperty({ description: 'First click', type: String, format: 'date-time', nullable: true }) clickedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) bouncedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) complainedAt!: string | null;
  @ApiProperty({ type: 'integer' }) openCount!: number;
  @ApiProperty({ type: 'integer' }) clickCount!: number;
}

export class CampaignRecipientPage {
  @ApiProperty({ type: () => [CampaignRecipient] })
  data!: CampaignRecipient[];
  @ApiProperty({ description: 'Pass as `cursor` to get the next page; null on the last page', type: String, nullable: true })
  cursor!: string | null;
  @ApiProperty({ type: Boolean })
  hasMore!: boolean;
  @ApiProperty({ description: 'Recipients matching the filters, counted on the first page only (0 on later pages)', type: 'integer' })
  total!: number;
}

export class CampaignLinkClicks {
  @ApiProperty({ description: 'The link target', type: String }) url!: string;
  @ApiProperty({ description: 'Recipients who clicked it', type: 'integer' }) uniqueClicks!: number;
  @ApiProperty({ description: 'Every click on it', type: 'integer' }) totalClicks!: number;
}

export class CampaignLinks {
  @ApiProperty({ description: 'Clicked links, most recipients first (at most 500)', type: () => [CampaignLinkClicks] })
  data!: CampaignLinkClicks[];
}

export class CampaignTimelineBucket {
  @ApiProperty({ description: 'Start of the bucket', type: String, format: 'date-time' }) time!: string;
  @ApiProperty({ description: 'Recipients whose first open falls in it', type: 'integer' }) opens!: number;
  @ApiProperty({ description: 'Recipients whose first click falls in it', type: 'integer' }) clicks!: number;
}

export class CampaignTimeline {
  @ApiProperty({ description: 'When sending started (null before)', type: String, format: 'date-time', nullable: true }) sentAt!: string | null;
  @ApiProperty({ enum: TIMELINE_INTERVALS }) interval!: TimelineInterval;
  @ApiProperty({ description: 'Buckets from the first to the last with activity, empty ones included (at most 2000, the latest)', type: () => [CampaignTimelineBucket] })
  data!: CampaignTimelineBucket[];
}
