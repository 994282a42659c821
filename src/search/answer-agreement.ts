import { terms } from "./segment.ts";

/** Document frequencies of terms in the workshop's keyword index, and how many chunks it holds. */
export interface TermStatistics {
  documents: number;
  frequency: Map<string, number>;
}

// The passages that vote: the best few of the list, as a person skims the top of the results.
const VOTERS = 20;
// A passage's agreement is the mean of its strongest few shared terms: an answer is a name, a
// number or a short phrase, a handful of terms, not the whole passage.
const STRONGEST = 5;
// Terms looked up at most, the most voted first: bounds the index lookup for long passages.
const MAX_TERMS = 1000;
const CJK_BIGRAM = /^[\u3400-\u9fff\uf900-\ufaff]{2}$/u;
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/u;

// CJK bigrams and other words of two characters or more: single characters say nothing alone.
function votingTerms(text: string, exclude: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const term of terms(text)) {
    if (exclude.has(term)) continue;
    if (CJK_BIGRAM.test(term) || (term.length >= 2 && !CJK.test(term))) out.add(term);
  }
  return out;
}

/**
 * How much the top passages of a list agree with each passage on what the query does not say.
 * Passages that answer a question tend to share the answer (a name, a number, a place), while
 * on-topic passages that do not answer it each say something else: on rgb-zh-dev, where several
 * news passages answer each query among distractors on the same event, that is most of what the
 * local signals missed. A term counts by the share of the voters holding it (two at least) times
 * its rarity in the workshop's text, so words every passage uses weigh nothing.
 *
 * Two steps, because the rarity comes from the keyword index: `terms` are the ones to look up,
 * `scores` reads them. Linear in the passages' length.
 */
export class AnswerAgreement {
  readonly terms: string[];
  readonly #perPassage: Set<string>[];
  readonly #votes: Map<string, number>;
  readonly #voters: number;

  /**
   * `voters` are indices into `passages`, best first. A passage's `source` is its document: the
   * chunks of one document share its title and headings, so a term counts once per document.
   */
  constructor(query: string, passages: { text: string; source: string }[], voters: number[]) {
    const asked = new Set(terms(query));
    this.#perPassage = passages.map((p) => votingTerms(p.text, asked));
    const bySource = new Map<string, Set<string>>();
    for (const i of voters.slice(0, VOTERS)) {
      const source = passages[i]?.source ?? "";
      const held = bySource.get(source) ?? new Set<string>();
      for (const term of this.#perPassage[i] ?? []) held.add(term);
      bySource.set(source, held);
    }
    this.#voters = bySource.size;
    this.#votes = new Map();
    for (const held of bySource.values()) for (const term of held) this.#votes.set(term, (this.#votes.get(term) ?? 0) + 1);
    const shared = [...this.#votes].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1]);
    this.terms = shared.slice(0, MAX_TERMS).map(([term]) => term);
    // Only looked-up terms may count: rarity is unknown for the rest.
    for (const [term] of shared.slice(MAX_TERMS)) this.#votes.delete(term);
  }

  /** One agreement per passage, 0 for none; unbounded above (rarity is a logarithm). */
  scores(statistics: TermStatistics): number[] {
    const rarity = (term: string) =>
      Math.max(0, Math.log(statistics.documents / Math.max(1, statistics.frequency.get(term) ?? 1)));
    return this.#perPassage.map((passageTerms) => {
      const strongest: number[] = [];
      for (const term of passageTerms) {
        const votes = this.#votes.get(term) ?? 0;
        if (votes < 2) continue;
        keepStrongest(strongest, (votes / this.#voters) * rarity(term));
      }
      return strongest.reduce((sum, v) => sum + v, 0) / STRONGEST;
    });
  }
}

// Keeps the STRONGEST largest values seen, in a small sorted array: constant work per value.
function keepStrongest(strongest: number[], value: number): void {
  if (strongest.length === STRONGEST && value <= (strongest[STRONGEST - 1] as number)) return;
  let i = strongest.length;
  if (i === STRONGEST) i--;
  while (i > 0 && (strongest[i - 1] as number) < value) {
    strongest[i] = strongest[i - 1] as number;
    i--;
  }
  strongest[i] = value;
}
