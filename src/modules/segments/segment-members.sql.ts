import { Fragment, sql } from '../../platform/database/sql-fragment';

/**
 * Whether contact `c` is a stored member of the segment (a STATIC segment's members), for the
 * filter engine's conditions over alias `c`. One probe of the members' primary key.
 */
export const storedMemberSql = (segmentId: string): Fragment =>
  sql`EXISTS (SELECT 1 FROM segment_members sm WHERE sm.segment_id = ${segmentId}::uuid AND sm.contact_id = c.id)`;
