/**
 * A small least-recently-used map: `get` refreshes an entry, `set` evicts the oldest past `max`
 * entries, or past `maxWeight` in all when given a `weight` per value (e.g. characters).
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly max: number,
    private readonly weigh: { weight: (value: V) => number; maxWeight: number } | null = null,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh ? this.weigh.weight(value) : 0;
    // A value heavier than the whole budget is not kept (it would evict everything else).
    if (this.weigh && weight > this.weigh.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    while (this.entries.size > this.max || (this.weigh && this.total > this.weigh.maxWeight)) this.delete(this.entries.keys().next().value as K);
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }
}
