import { queryTerms, terms } from "../../search/segment.ts";
import { citationOf, type Passage } from "../passages.ts";
import type { Role } from "./greetings.ts";
import { offerOf } from "./tool-labels.ts";

/** Whether a reply should be in Chinese: the user wrote any Chinese. */
export function isChinese(text: string): boolean {
  return /[\u3400-\u9fff]/.test(text);
}

const SENTENCE = /[^。！？!?\n]+[。！？!?]?/g;
const MAX_SENTENCES = 3;
const CONTEXT_RANK_DECAY = 0.85;

/**
 * An extractive answer: the sentences of the retrieved passages that share the most terms with
 * the question, each cited `[n]`, and the sources listed by title and heading. `null` when no
 * sentence shares a term with the question.
 */
export function extractiveAnswer(question: string, passages: Passage[]): string | null {
  const wanted = new Set(queryTerms(question));
  if (wanted.size === 0) return null;
  const scored: { passage: number; order: number; text: string; score: number }[] = [];
  passages.forEach((passage, index) => {
    // Where a passage sits (its title and heading; an FAQ answer's question) says what it answers,
    // though its sentences need not repeat those words.
    const context = new Set(terms(`${passage.title} ${passage.heading}`));
    // Retrieval ranked the passages with more than shared words (phrases, FAQ questions): a
    // sentence of a lower-ranked passage needs more shared words to go before one ranked higher.
    const rank = CONTEXT_RANK_DECAY ** index;
    let order = 0;
    for (const match of passage.content.matchAll(SENTENCE)) {
      const text = match[0].trim().replace(/^[#>*\-\s]+/, "");
      if (text.length < 4) continue;
      const own = new Set(terms(text));
      let shared = 0;
      let placed = 0;
      for (const term of wanted) {
        if (own.has(term)) shared += term.length;
        else if (context.has(term)) placed += term.length;
      }
      if (shared > 0) scored.push({ passage: index, order: order++, text, score: (shared + placed / 2) * rank });
    }
  });
  if (scored.length === 0) return null;
  scored.sort((a, b) => b.score - a.score);
  // An FAQ answer often repeats the guide word for word: each sentence is quoted once, at its best.
  const seen = new Set<string>();
  const unique = scored.filter((s) => {
    if (seen.has(s.text)) return false;
    seen.add(s.text);
    return true;
  });
  // The best-ranked passage that shares words with the question always speaks: retrieval matched it
  // on more than words (phrases, an FAQ's question), and its answer may use other words.
  const first = Math.min(...unique.map((s) => s.passage));
  const lead = unique.find((s) => s.passage === first) as (typeof unique)[number];
  const best = [lead, ...unique.filter((s) => s !== lead)]
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.passage - b.passage || a.order - b.order);
  const cited = [...new Set(best.map((s) => s.passage))];
  const chinese = isChinese(question);
  const lines = best.map((s) => `${s.text} [${cited.indexOf(s.passage) + 1}]`);
  const sources = cited.map((i, n) => `[${n + 1}] ${citationOf(passages[i] as Passage)}`);
  const intro = chinese ? "根据知识库：" : "From the knowledge base:";
  const outro = chinese ? "来源：" : "Sources:";
  // A list, so Markdown shows each source on its own line.
  return `${intro}\n\n${lines.join("\n\n")}\n\n${outro}\n${sources.map((s) => `- ${s}`).join("\n")}`;
}

/**
 * An English question the Chinese passages share no words with: retrieval still ranked them (by
 * meaning, phrases, FAQ questions), so the best one is quoted, saying honestly that the guide is in
 * Chinese. `null` when nothing was retrieved or the question is Chinese.
 */
export function closestPassage(question: string, passages: Passage[]): string | null {
  const best = passages[0];
  if (isChinese(question) || !best || !isChinese(best.content)) return null;
  const sentences = [...best.content.matchAll(SENTENCE)]
    .map((m) => m[0].trim().replace(/^[#>*\-\s]+/, ""))
    .filter((text) => text.length >= 4)
    .slice(0, MAX_SENTENCES);
  if (sentences.length === 0) return null;
  return `The workshop's guide is written in Chinese, so I cannot quote an English answer. The closest passage is:\n\n${sentences.join("")} [1]\n\nSources:\n- [1] ${citationOf(best)}\n\nAsk in Chinese to get the guide's own answer.`;
}

/**
 * What the offline model says when it can neither call a tool nor find an answer: what each tool
 * offered offers, in the tools' own words (with an example said of oneself for staff, who see and
 * record only their own work).
 */
export function capabilities(chinese: boolean, toolNames: string[], role: Role): string {
  const own = role === "staff";
  const offered = toolNames.flatMap((name) => {
    const offer = offerOf(name, chinese, own);
    return offer ? [`- ${offer}`] : [];
  });
  return chinese
    ? `我是离线模型，不能自由对话，也没有在知识库里找到能回答这个问题的内容。我能做的：\n${offered.join("\n")}\n\n也可以直接问知识库里的问题，我会摘录相关段落并注明出处。`
    : `I am the offline model: I cannot chat freely, and I found nothing in the knowledge bases that answers this. I can help with:\n${offered.join("\n")}\n\nYou can also ask about what is in the knowledge bases; I quote the passages that answer and cite them.`;
}
