// Part of `npm run bench -- tenants`: what the first request of a workshop after a start costs, and
// its second, on a server holding 10 workshops and on one holding 1,000. One client, one request at
// a time, so a figure is what a request costs and not how requests queue: the number of workshops
// could change the first; how many requests are a workshop's first is a matter of its traffic.

import { startDevServer } from "../dev-server.ts";
import { executeSql } from "../lib.ts";
import { type Figures, percentile } from "./measure.ts";

/** An operation of `operations` in tenants.ts, given one workshop. */
type Operation<W> = (w: W) => Promise<void>;

function figures(name: string, latencies: number[], seconds: number): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    name,
    clients: 1,
    requests: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    rps: sorted.length / seconds,
  };
}

/**
 * Starts the server on `stateDir` `rounds` times; after each start, each operation goes to
 * `perRound` workshops it has not been sent to, twice each (first, then second). Keys are marked as
 * in use before each start, as a deployment's are (a key's use is written every 10 minutes).
 */
export async function firstRequests<W>(
  stateDir: string,
  workshops: W[],
  label: string,
  ops: (baseUrl: string) => Record<string, Operation<W>>,
  { rounds, perRound }: { rounds: number; perRound: number },
): Promise<Figures[]> {
  const times = new Map<string, { latencies: number[]; ms: number }>();
  let next = 0;
  for (let round = 0; round < rounds; round++) {
    executeSql(
      "bench-keys-in-use",
      ["UPDATE api_keys SET last_used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now');"],
      ["--local", "--persist-to", stateDir],
    );
    const server = await startDevServer({ stateDir });
    try {
      for (const [name, op] of Object.entries(ops(server.baseUrl))) {
        for (let i = 0; i < perRound; i++) {
          const w = workshops[next++ % workshops.length] as W;
          for (const which of ["first", "second"]) {
            const row = `${name}, ${which} request since the start, ${label}`;
            const t = performance.now();
            await op(w);
            const ms = performance.now() - t;
            const entry = times.get(row) ?? { latencies: [], ms: 0 };
            entry.latencies.push(ms);
            entry.ms += ms;
            times.set(row, entry);
          }
        }
      }
    } finally {
      await server.stop();
    }
  }
  return [...times].map(([name, { latencies, ms }]) => figures(name, latencies, ms / 1000));
}
