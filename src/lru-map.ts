/**
 * A map of at most `capacity` entries that forgets the least recently used one to make room: what
 * an isolate keeps per workshop (a Map iterates in insertion order, so reading or writing an entry
 * moves it last and the first key is the least recently used). Given `weigh` and `budget`, it also
 * forgets the least recently used entries while their weights, as of when each was set, sum past
 * the budget (the newest entry stays, whatever its weight).
 */
export class LruMap<K, V> {
  readonly #entries = new Map<K, { value: V; weight: number }>();
  readonly #capacity: number;
  readonly #weigh: ((value: V) => number) | undefined;
  readonly #budget: number;
  #weight = 0;

  constructor(
    capacity: number,
    { weigh, budget = Number.POSITIVE_INFINITY }: { weigh?: (value: V) => number; budget?: number } = {},
  ) {
    this.#capacity = capacity;
    this.#weigh = weigh;
    this.#budget = budget;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry?.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.#weigh?.(value) ?? 0;
    while (this.#entries.size > 0 && (this.#entries.size >= this.#capacity || this.#weight + weight > this.#budget)) {
      this.delete(this.#entries.keys().next().value as K);
    }
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
  }

  delete(key: K): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
  }

  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }

  get size(): number {
    return this.#entries.size;
  }
}
