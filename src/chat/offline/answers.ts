import { queryTerms, terms } from "../../search/segment.ts";
import { citationOf, type Passage } from "../passages.ts";
import type { Role } from "./greetings.ts";

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
  return `The workshop's guide is written in Chinese, so I cannot quote an English answer. The closest passage is:\n\n${sentences.join("")} [1]\n\nSources:\n- [1] ${citationOf(best)}\n\nA remote model (CHAT_MODEL) can translate; or ask in Chinese.`;
}

/** What the offline model says when it can neither call a tool nor find an answer. */
export function capabilities(chinese: boolean, toolNames: string[], role: Role): string {
  const can = new Set(toolNames);
  // Staff see and record only their own work: their examples say 我, not a colleague's name.
  const own = role === "staff";
  const zh: [string, string][] = [
    ["query_orders", "查订单（例如：“生产中的订单有哪些”）"],
    ["query_piece_records", own ? "查计件（例如：“我今天做了多少件”）" : "查计件（例如：“李娟今天做了多少件”）"],
    ["query_payroll", own ? "查工资（例如：“我这个月的工资”）" : "查工资（例如：“张敏这个月的工资”）"],
    ["query_processes", "查工序和单价（例如：“上领子的单价”）"],
    ["query_employees", "查员工（例如：“有哪些员工”）"],
    [
      "prepare_piece_record",
      own
        ? "记计件（例如：“我今天上领子80件，帮我登记”，需要你确认后才写入）"
        : "记计件（例如：“给李娟记上领子200件”，需要你确认后才写入）",
    ],
    ["initiate_session", "引导式咨询（例如：“衣服起皱怎么办”）"],
    ["knowledge_search", "搜索知识库（例如：“搜索知识库 如何新建订单”）"],
  ];
  const en: [string, string][] = [
    ["query_orders", 'orders ("which orders are in production")'],
    [
      "query_piece_records",
      own ? 'piece records ("how many pieces did I do today")' : 'piece records ("how many pieces did Li Juan do today")',
    ],
    ["query_payroll", 'payroll ("payroll for this month")'],
    ["query_processes", 'processes and unit prices ("list the processes")'],
    ["query_employees", 'employees ("list employees")'],
    [
      "prepare_piece_record",
      own
        ? 'recording pieces ("record 80 pieces of collar for me today", confirmed by you before it is written)'
        : 'recording pieces ("record 200 pieces of collar for Li Juan", confirmed by you before it is written)',
    ],
    ["initiate_session", 'guided consultations ("help me troubleshoot a garment defect")'],
    ["knowledge_search", 'knowledge search ("search the manual for new orders")'],
  ];
  const offered = (chinese ? zh : en).filter(([name]) => can.has(name)).map(([, text]) => `- ${text}`);
  return chinese
    ? `我是离线模型，不能自由对话，也没有在知识库里找到能回答这个问题的内容。我能做的：\n${offered.join("\n")}\n\n也可以直接问知识库里的问题，我会摘录相关段落并注明出处。`
    : `I am the offline model: I cannot chat freely, and I found nothing in the knowledge bases that answers this. I can help with:\n${offered.join("\n")}\n\nYou can also ask about what is in the knowledge bases; I quote the passages that answer and cite them.`;
}
