import { useSegments } from '../../api/segments';
import type { Campaign } from '../../api/campaigns';

/** A campaign's audience in the list: "all contacts", "filters", or the segment by name (one query of the segments for the whole list). */
export function AudienceCell({ campaign }: { campaign: Pick<Campaign, 'audienceType' | 'segmentId'> }) {
  const segments = useSegments();
  if (campaign.audienceType === 'ALL') return <td>all contacts</td>;
  if (campaign.audienceType !== 'SEGMENT') return <td>filters</td>;
  const segment = segments.data?.find((s) => s.id === campaign.segmentId);
  return <td>{segment ? `segment ${segment.name}` : segments.isPending ? 'segment' : 'a deleted segment'}</td>;
}
