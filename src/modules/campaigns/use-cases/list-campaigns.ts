import type { Repository, SelectQueryBuilder } from 'typeorm';
import { clampLimit, CursorPage, cursorPage, decodeCursor, OffsetPage, offsetPage, PG_TIMESTAMP } from '../../../platform/http/pagination';
import { isUuid } from '../../../platform/http/parse-uuid.pipe';
import { mixedPagination, unknownStatusFilter } from '../campaigns.errors';
import { CampaignResponse, toCampaignResponse } from '../dto/campaign.response';
import { CAMPAIGN_SORTS, CampaignSort, ListCampaignsQuery, MAX_PAGE_SIZE } from '../dto/list-campaigns.query';
import { Campaign, CAMPAIGN_STATUSES } from '../entities/campaign.entity';

/** The sort value of a row as the keyset compares it; timestamps as PostgreSQL text (full precision). */
const SORT_COLUMNS: Record<CampaignSort, string> = { name: 'lower(k.name)', createdAt: 'k.created_at', updatedAt: 'k.updated_at' };
const CURSOR_VALUES: Record<CampaignSort, string> = { name: 'lower(k.name)', createdAt: 'k.created_at::text', updatedAt: 'k.updated_at::text' };
const CURSOR_CASTS: Record<CampaignSort, string> = { name: '', createdAt: '::timestamptz', updatedAt: '::timestamptz' };

type Dir = 'asc' | 'desc';

interface CampaignsCursor extends Record<string, unknown> {
  s: CampaignSort;
  d: Dir;
  v: string;
  id: string;
}

/**
 * `GET /campaigns`: `limit`/`cursor` (what Plunk's clients send) answer a cursor list, keyset over
 * (sort value, id) with `total` on the first page; otherwise `page`/`pageSize` answer the offset
 * list. Asking for both is 422. Filters, search and sort are the same in both.
 */
export async function listCampaigns(
  campaigns: Repository<Campaign>,
  projectId: string,
  query: ListCampaignsQuery,
): Promise<OffsetPage<CampaignResponse> | CursorPage<CampaignResponse>> {
  const byCursor = query.limit !== undefined || query.cursor !== undefined;
  if (byCursor && (query.page !== undefined || query.pageSize !== undefined)) throw mixedPagination(query);
  if (query.status !== undefined && !(CAMPAIGN_STATUSES as readonly string[]).includes(query.status)) throw unknownStatusFilter(query.status);
  return byCursor ? cursorList(campaigns, projectId, query) : offsetList(campaigns, projectId, query);
}

/** The project's campaigns matching `status` and `search`. */
function filtered(campaigns: Repository<Campaign>, projectId: string, query: ListCampaignsQuery): SelectQueryBuilder<Campaign> {
  const qb = campaigns.createQueryBuilder('k').where('k.project_id = :projectId', { projectId });
  if (query.status) qb.andWhere('k.status = :status', { status: query.status });
  const search = query.search?.trim();
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    qb.andWhere(`(k.name ILIKE :pattern OR k.subject ILIKE :pattern OR k.from_address ILIKE :pattern)`, { pattern });
  }
  return qb;
}

const sortOf = (query: ListCampaignsQuery): CampaignSort => ((CAMPAIGN_SORTS as readonly string[]).includes(query.sort ?? '') ? (query.sort as CampaignSort) : 'createdAt');
const dirOf = (query: ListCampaignsQuery): Dir => (query.dir?.toLowerCase() === 'asc' ? 'asc' : 'desc');

async function offsetList(campaigns: Repository<Campaign>, projectId: string, query: ListCampaignsQuery): Promise<OffsetPage<CampaignResponse>> {
  const page = query.page ?? 1;
  const pageSize = Math.min(query.pageSize ?? 20, MAX_PAGE_SIZE);
  const dir = dirOf(query) === 'asc' ? 'ASC' : 'DESC';
  const qb = filtered(campaigns, projectId, query)
    .orderBy(SORT_COLUMNS[sortOf(query)], dir)
    .addOrderBy('k.id', dir)
    .offset((page - 1) * pageSize)
    .limit(pageSize);
  const [rows, total] = await qb.getManyAndCount();
  return offsetPage(rows.map(toCampaignResponse), page, pageSize, total);
}

/** A cursor carries its own sort and direction, so later pages continue the order they started with. */
async function cursorList(campaigns: Repository<Campaign>, projectId: string, query: ListCampaignsQuery): Promise<CursorPage<CampaignResponse>> {
  const limit = clampLimit(query.limit);
  const cursor = decodeCursor<CampaignsCursor>(
    query.cursor,
    (c) =>
      (CAMPAIGN_SORTS as readonly unknown[]).includes(c.s) &&
      (c.d === 'asc' || c.d === 'desc') &&
      typeof c.v === 'string' &&
      (c.s === 'name' || PG_TIMESTAMP.test(c.v)) &&
      typeof c.id === 'string' &&
      isUuid(c.id),
  );
  const sort = cursor?.s ?? sortOf(query);
  const dir = cursor?.d ?? dirOf(query);
  const order = dir === 'asc' ? 'ASC' : 'DESC';
  const page = filtered(campaigns, projectId, query);
  const count = cursor ? Promise.resolve(0) : page.clone().getCount();
  if (cursor) {
    page.andWhere(`(${SORT_COLUMNS[sort]}, k.id) ${dir === 'asc' ? '>' : '<'} (:v${CURSOR_CASTS[sort]}, :id::uuid)`, { v: cursor.v, id: cursor.id });
  }
  const { entities, raw } = await page
    .addSelect(CURSOR_VALUES[sort], 'cursor_value')
    .orderBy(SORT_COLUMNS[sort], order)
    .addOrderBy('k.id', order)
    .limit(limit + 1)
    .getRawAndEntities<{ cursor_value: string }>();
  const rows = entities.map((entity, i) => ({ entity, value: raw[i].cursor_value }));
  return cursorPage(rows, limit, (row) => toCampaignResponse(row.entity), (last) => ({ s: sort, d: dir, v: last.value, id: last.entity.id }), await count);
}
