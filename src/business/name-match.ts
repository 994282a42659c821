import { AppError } from "../errors.ts";
import type { Ambiguity } from "../shapes.ts";

/** Something a person names: its id, the name to match, and how to show it among candidates. */
export interface Named {
  id: string;
  name: string;
  label: string;
  /** Other exact handles (an order number, an employee number). */
  aliases?: string[];
}

export type NameMatch<T extends Named> =
  | { kind: "found"; item: T }
  | { kind: "ambiguous"; candidates: T[] }
  | { kind: "unknown"; close: T[] };

const MAX_CANDIDATES = 10;

function normalize(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, "");
}

/**
 * Finds what a person means by `query`, forgivingly: an id or exact handle, then the exact name,
 * then names containing it (领子 finds 上领子 when that is the only one). Several at the first tier
 * that matches are ambiguous; none at all is unknown, with the closest names to suggest. A name
 * longer than any (张三丰) is not taken for a shorter one (张三): that would be a guess.
 */
export function matchName<T extends Named>(items: readonly T[], query: string): NameMatch<T> {
  const q = normalize(query);
  const tiers: ((item: T, name: string) => boolean)[] = [
    (item) => item.id === query.trim() || (item.aliases ?? []).some((a) => normalize(a) === q),
    (_, name) => name === q,
    (_, name) => q.length > 0 && name.includes(q),
  ];
  const names = items.map((item) => normalize(item.name));
  for (const tier of tiers) {
    const hits = items.filter((item, i) => tier(item, names[i] as string));
    if (hits.length === 1) return { kind: "found", item: hits[0] as T };
    if (hits.length > 1) return { kind: "ambiguous", candidates: hits.slice(0, MAX_CANDIDATES) };
  }
  return { kind: "unknown", close: closest(items, names, q) };
}

/** Items sharing the most characters with the query, best first; those sharing none are left out. */
function closest<T extends Named>(items: readonly T[], names: string[], q: string): T[] {
  const wanted = new Set(q);
  return items
    .map((item, i) => {
      const chars = new Set(names[i]);
      let shared = 0;
      for (const c of wanted) if (chars.has(c)) shared++;
      return { item, score: shared / Math.max(chars.size, wanted.size, 1) };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 5)
    .map((s) => s.item);
}

/**
 * The item a read filter names, or a clear error: ambiguous names list the candidates, unknown
 * ones the close names, so an agent can ask the user instead of guessing.
 */
export function requireMatch<T extends Named>(items: readonly T[], query: string, what: string, field: string): T {
  const match = matchName(items, query);
  if (match.kind === "found") return match.item;
  if (match.kind === "ambiguous") {
    throw new AppError(
      "ambiguous_name",
      `${what} '${query}' matches several: ${match.candidates.map(describe).join("; ")}. Ask the user which one, then call again with ${field} set to its id.`,
      { details: { field, candidates: match.candidates.map(({ id, label }) => ({ id, label })) } },
    );
  }
  throw new AppError(
    "unknown_name",
    `No ${what.toLowerCase()} '${query}' in this workshop.${match.close.length ? ` Close names: ${match.close.map(describe).join("; ")}.` : ""}`,
    { details: { field, close: match.close.map(({ id, label }) => ({ id, label })) } },
  );
}

function describe(item: Named): string {
  return `${item.label} (id ${item.id})`;
}

/** Either what a name settles to, or the choice to put to the user. */
export type Settled<T> = { item: T; ambiguity?: undefined } | { item?: undefined; ambiguity: Ambiguity };

/**
 * What a write names, settled: the one item it means, or, when several match, the choice to put
 * to the user as the pending action's ambiguity; no match is `unknown_name` with the close names.
 */
export function settle<T extends Named>(items: readonly T[], query: string, what: string, field: string): Settled<T> {
  const match = matchName(items, query);
  if (match.kind === "ambiguous") {
    return {
      ambiguity: {
        field,
        message: `Several ${what} match '${query}'. Ask the user which one, then prepare again with ${field} set to the chosen id.`,
        candidates: match.candidates.map(({ id, label }) => ({ id, label })),
      },
    };
  }
  return { item: requireMatch(items, query, what, field) };
}
