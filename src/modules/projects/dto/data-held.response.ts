import { ApiProperty } from '@nestjs/swagger';

export class HeldTableResponse {
  @ApiProperty({ description: 'What the table holds: events, emails, emailContents, inboundMessages, webhookDeliveries, contacts, …', type: String })
  name!: string;
  @ApiProperty({ description: "The project's rows: exact up to 100,000, else the database planner's estimate (see rowsEstimated)", type: 'integer' })
  rows!: number;
  @ApiProperty({ description: 'Whether rows is an estimate', type: Boolean })
  rowsEstimated!: boolean;
  @ApiProperty({ description: "Estimated bytes on disk: the table's average size per row (data, indexes, large values) times the project's rows", type: 'integer' })
  bytes!: number;
  @ApiProperty({ description: 'The oldest record (ISO 8601), for events and emails; null when there is none or it is not tracked', type: String, nullable: true })
  oldestAt!: string | null;
}

/** What is held of a project, per table (docs/retention.md, "What is held"). */
export class DataHeldResponse {
  @ApiProperty({ type: () => [HeldTableResponse], description: 'One entry per table holding project data' })
  tables!: HeldTableResponse[];
  @ApiProperty({ description: 'When it was measured (ISO 8601)', type: String })
  measuredAt!: string;
}
