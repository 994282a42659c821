// Latency and throughput of a request function under N concurrent clients, bounded in count and time.

export interface Figures {
  name: string;
  clients: number;
  requests: number;
  p50: number;
  p95: number;
  rps: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/**
 * Runs `perClient` requests on each of `clients` concurrent loops (after `warmup` untimed ones) and
 * reports p50/p95 in milliseconds and requests per second. `makeClient` sets up per-client state
 * (say, a session) and returns the request to repeat.
 */
export async function measure(
  name: string,
  {
    clients,
    perClient,
    warmup = 10,
    maxSeconds = 60,
  }: { clients: number; perClient: number; warmup?: number; maxSeconds?: number },
  makeClient: (index: number) => Promise<(i: number) => Promise<void>>,
): Promise<Figures> {
  const requests = await Promise.all(Array.from({ length: clients }, (_, i) => makeClient(i)));
  await Promise.all(
    requests.map(async (request) => {
      for (let i = 0; i < warmup; i++) await request(i);
    }),
  );
  const latencies: number[] = [];
  const deadline = performance.now() + maxSeconds * 1000;
  const started = performance.now();
  await Promise.all(
    requests.map(async (request) => {
      for (let i = 0; i < perClient && performance.now() < deadline; i++) {
        const t0 = performance.now();
        await request(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    clients,
    requests: latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    rps: latencies.length / seconds,
  };
}

/** Prints figures as a table, each row's p50 and throughput relative to its baseline row. */
export function printTable(title: string, rows: Figures[], baselineOf: (row: Figures) => Figures | undefined): void {
  console.log(`\n${title}`);
  console.log("| case | clients | requests | p50 ms | p95 ms | req/s | p50 vs baseline | req/s vs baseline |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const row of rows) {
    const base = baselineOf(row);
    const ratio = (a: number, b: number | undefined) => (b ? `${(a / b).toFixed(2)}x` : "-");
    console.log(
      `| ${row.name} | ${row.clients} | ${row.requests} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.rps.toFixed(0)} | ${ratio(row.p50, base?.p50)} | ${ratio(row.rps, base?.rps)} |`,
    );
  }
}
