/** `GET /domains/:id`'s computed warm-up figures (`DomainsRepository.warmupStatus`). */
export interface WarmupStatusRow {
  id: string;
  day: number | null;
  cap_today: number | null;
  sent_today: number | null;
  complete_at: Date | null;
  schedule: Array<{ day: number; date: string; cap: number }>;
}
