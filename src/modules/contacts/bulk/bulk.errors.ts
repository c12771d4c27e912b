import { notFound } from '../../../platform/http/app-error';

/** Ids per bulk call (spec section 8). */
export const BULK_MAX_IDS = 1_000;

export const bulkJobNotFound = () => notFound('Bulk job');
