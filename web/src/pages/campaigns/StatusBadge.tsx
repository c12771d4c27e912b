import type { CampaignStatus } from '../../api/campaigns';
import { Badge } from '../../components/Feedback';

const TONES: Record<CampaignStatus, 'neutral' | 'good' | 'warn' | 'bad' | 'info'> = { DRAFT: 'neutral', SCHEDULED: 'info', SENDING: 'warn', SENT: 'good', CANCELLED: 'bad' };

export function StatusBadge({ status }: { status: CampaignStatus }) {
  return <Badge tone={TONES[status]}>{status.toLowerCase()}</Badge>;
}
