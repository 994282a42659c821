import { AppError } from "../errors.ts";
import { normaliseText, squash, terms } from "./segment.ts";

const CJK_CHAR = /^[\u3400-\u9fff\uf900-\ufaff]$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Synonym groups compiled for one search. Query terms are expanded with the other words of every
 * group the query uses (keyword search), and the phrase reranker compares texts with those words
 * replaced by their group's first word, so 创建订单 and 新建订单 read as the same phrase.
 */
export class Synonyms {
  private readonly groups: string[][];
  private readonly groupOf = new Map<string, number>();
  private readonly pattern: RegExp | null;

  constructor(groups: readonly (readonly string[])[]) {
    this.groups = groups.map((g) => g.map(squash).filter(Boolean));
    this.groups.forEach((group, i) => {
      for (const word of group) if (!this.groupOf.has(word)) this.groupOf.set(word, i);
    });
    // Longest words first, so a group's longer word wins over a shorter one it contains.
    const words = [...this.groupOf.keys()].sort((a, b) => b.length - a.length);
    this.pattern = words.length > 0 ? new RegExp(words.map(escapeRegExp).join("|"), "gu") : null;
  }

  /** The groups (by index) with a word in `text`. */
  private groupsIn(text: string): Set<number> {
    const found = new Set<number>();
    if (!this.pattern) return found;
    for (const match of squash(text).matchAll(this.pattern)) found.add(this.groupOf.get(match[0]) as number);
    return found;
  }

  /**
   * Terms to search besides the query's own: those of the other words in each group the query
   * uses. Single Chinese characters are left out; they would match almost anything.
   */
  expansionTerms(query: string): string[] {
    const out = new Set<string>();
    for (const i of this.groupsIn(query)) {
      for (const word of this.groups[i] as string[]) {
        for (const term of terms(word)) if (!CJK_CHAR.test(term)) out.add(term);
      }
    }
    return [...out];
  }

  /**
   * A function that rewrites squashed text, replacing every word of the query's groups with its
   * group's first word; identity when the query uses none.
   */
  canonicaliserFor(query: string): (squashed: string) => string {
    const used = [...this.groupsIn(query)];
    if (used.length === 0) return (text) => text;
    const canonical = new Map<string, string>();
    for (const i of used) {
      const group = this.groups[i] as string[];
      for (const word of group) canonical.set(word, group[0] as string);
    }
    const words = [...canonical.keys()].sort((a, b) => b.length - a.length);
    const pattern = new RegExp(words.map(escapeRegExp).join("|"), "gu");
    return (text) => text.replace(pattern, (word) => canonical.get(word) as string);
  }
}

/** Limits on a synonym set: enough for a trade's vocabulary, small enough to compile per search. */
export const SYNONYM_LIMITS = { groups: 500, wordsPerGroup: 20, wordLength: 30 } as const;

/**
 * Normalises groups (NFKC, lower case, trimmed, duplicates in a group dropped) and refuses a word
 * in two groups, which would leave its meaning ambiguous, and a group of fewer than two words.
 */
export function normaliseGroups(groups: readonly (readonly string[])[]): string[][] {
  const seen = new Map<string, number>();
  return groups.map((group, i) => {
    const words = [...new Set(group.map((w) => normaliseText(w).trim().replace(/\s+/g, " ")))].filter(Boolean);
    if (words.length < 2) {
      throw new AppError("invalid_input", `Synonym group ${i + 1} needs at least two different words.`);
    }
    for (const word of words) {
      const key = squash(word);
      if (!key) throw new AppError("invalid_input", `'${word}' in group ${i + 1} has no letters or digits.`);
      const other = seen.get(key);
      if (other !== undefined && other !== i) {
        throw new AppError("invalid_input", `'${word}' is in groups ${other + 1} and ${i + 1}; a word may be in one group only.`);
      }
      seen.set(key, i);
    }
    return words;
  });
}
