export interface CampaignSummary {
  id: string;
  name: string;
  subject: string;
  from: string;
  status: string;
  audienceType: string;
  segmentId?: string | null;
}

/** `GET /campaigns/:id/audience-preview`: the audience as it would be fixed now (`totalRecipients` includes the skipped). */
export interface AudiencePreview {
  totalRecipients: number;
  skippedCount: number;
  skipped: Partial<Record<string, number>>;
}

const AUDIENCES: Record<string, string> = { ALL: 'all contacts', SEGMENT: 'a segment', FILTERED: 'a filtered audience' };

/** What `send_campaign` answers without `confirm: true`: what would go out, to how many, and how to confirm. */
export function describeRefusedSend(campaign: CampaignSummary, preview: AudiencePreview, scheduledFor?: string): string {
  const audience = campaign.audienceType === 'SEGMENT' && campaign.segmentId ? `segment ${campaign.segmentId}` : (AUDIENCES[campaign.audienceType] ?? campaign.audienceType);
  const reasons = Object.entries(preview.skipped)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');
  const skipped = preview.skippedCount > 0 ? ` ${preview.skippedCount} more of the audience would be skipped (${reasons}).` : '';
  const when = scheduledFor ? `scheduled for ${scheduledFor}` : 'sent now';
  const count = preview.totalRecipients - preview.skippedCount;
  const recipients = `${count} recipient${count === 1 ? '' : 's'}`;
  return [
    `Not sent: sending a campaign needs confirm: true.`,
    `Campaign "${campaign.name}" (${campaign.id}, status ${campaign.status}) with subject "${campaign.subject}" from ${campaign.from} would be ${when} to ${recipients} (${audience}).${skipped}`,
    `Ask the user to approve, then call send_campaign again with confirm: true.`,
  ].join('\n');
}
