import type { TrackingMode } from '../../projects/entities/project.entity';
import type { EmailType } from '../suppression/suppression.types';

/**
 * What to track for one message: the per-send `tracking` override wins; otherwise the project
 * mode decides (MARKETING_ONLY tracks MARKETING mail only).
 */
export function trackingFor(mode: TrackingMode, type: EmailType, override?: boolean | null): { opens: boolean; clicks: boolean } {
  const on = typeof override === 'boolean' ? override : mode === 'ENABLED' || (mode === 'MARKETING_ONLY' && type === 'MARKETING');
  return { opens: on, clicks: on };
}
