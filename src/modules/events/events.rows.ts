/** One event of the list (`EventsRepository.page`) with its contact's address; `toEventResponse` maps it to the API. */
export interface EventListRow {
  id: string;
  name: string;
  contact_id: string | null;
  contact_email: string | null;
  data: Record<string, unknown> | null;
  created_at: Date | string;
  created_key: string;
}
