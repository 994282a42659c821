import { type FormEvent, useEffect, useState } from "react";
import type { FeedbackView } from "../shapes.ts";
import { api, type KnowledgeBase } from "./api.ts";
import { type Lang, useI18n } from "./i18n.ts";
import { useRequestError } from "./use-request-error.ts";

const WORDS = {
  zh: {
    title: "回答反馈",
    lead: "大家最近点了 👎 的回答：问题、回答和它依据的资料。搜索答错的地方，可以补一条常见问题。",
    none: "最近没有 👎。",
    question: "问题",
    answer: "回答",
    sources: "依据",
    tools: "用到的工具",
    noSources: "没有引用资料",
    addFaq: "添加为常见问题",
    faqBase: "常见问题库",
    faqAnswer: "正确的回答",
    save: "保存",
    cancel: "取消",
    added: "已添加为常见问题",
    noFaqBase: "还没有常见问题类型的知识库：先在知识库里新建一个（类型选“常见问题”）。",
  },
  en: {
    title: "Answer feedback",
    lead: "Answers people rated 👎 lately: the question, the answer and what it looked at. Where search answered wrong, add an FAQ entry.",
    none: "No 👎 lately.",
    question: "Question",
    answer: "Answer",
    sources: "Sources",
    tools: "Tools used",
    noSources: "No passages cited",
    addFaq: "Add as FAQ",
    faqBase: "FAQ knowledge base",
    faqAnswer: "The right answer",
    save: "Save",
    cancel: "Cancel",
    added: "Added as an FAQ entry",
    noFaqBase: "No FAQ knowledge base yet: create one (type FAQ) first.",
  },
} satisfies Record<Lang, Record<string, string>>;

/** A boss's review of the recent 👎: each with its question, answer and sources, and "add as FAQ" pre-filled from the question. */
export function FeedbackReview({ onUnauthorized }: { onUnauthorized: () => void }) {
  const { t, lang } = useI18n();
  const w = WORDS[lang];
  const [items, setItems] = useState<FeedbackView[] | null>(null);
  const [bases, setBases] = useState<KnowledgeBase[]>([]);
  const { error, fail } = useRequestError(onUnauthorized);
  useEffect(() => {
    api.recentFeedback().then((r) => setItems(r.feedback), fail);
    api.knowledgeBases().then((r) => setBases(r.knowledge_bases.filter((kb) => kb.type === "faq")), fail);
  }, [fail]);
  const noted = (id: string, faq: FeedbackView["faq"]) =>
    setItems((current) => (current ?? []).map((item) => (item.id === id ? { ...item, faq } : item)));
  return (
    <section className="settings-section" aria-labelledby="feedback-title">
      <h3 id="feedback-title">{w.title}</h3>
      <p className="muted">{w.lead}</p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {items === null ? (
        !error && <p className="muted">{t.loading}</p>
      ) : items.length === 0 ? (
        <p className="muted">{w.none}</p>
      ) : (
        <ul className="feedback-list">
          {items.map((item) => (
            <li key={item.id} data-feedback-id={item.id}>
              <p className="muted">
                {item.person.name ?? item.person.id} ·{" "}
                <time dateTime={item.updated_at}>{item.updated_at.slice(0, 16).replace("T", " ")}</time>
              </p>
              {item.comment && <p className="feedback-comment">“{item.comment}”</p>}
              <dl>
                <dt>{w.question}</dt>
                <dd className="feedback-question">{item.question}</dd>
                <dt>{w.answer}</dt>
                <dd className="feedback-answer">{item.answer}</dd>
                <dt>{w.sources}</dt>
                <dd>
                  {item.sources.length === 0 ? (
                    <span className="muted">{w.noSources}</span>
                  ) : (
                    <ul>
                      {item.sources.map((s) => (
                        <li key={s.chunk_id}>{s.citation}</li>
                      ))}
                    </ul>
                  )}
                </dd>
                {item.tools.length > 0 && (
                  <>
                    <dt>{w.tools}</dt>
                    <dd>{item.tools.join(", ")}</dd>
                  </>
                )}
              </dl>
              {item.faq ? (
                <p className="badge status-confirmed">{w.added}</p>
              ) : (
                <AddFaq
                  item={item}
                  bases={bases}
                  words={w}
                  onAdded={(faq) => noted(item.id, faq)}
                  onUnauthorized={onUnauthorized}
                />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AddFaq({
  item,
  bases,
  words: w,
  onAdded,
  onUnauthorized,
}: {
  item: FeedbackView;
  bases: KnowledgeBase[];
  words: (typeof WORDS)["zh"];
  onAdded: (faq: { kb_id: string; entry_id: string }) => void;
  onUnauthorized: () => void;
}) {
  const [open, setOpen] = useState(false);
  const { error, fail } = useRequestError(onUnauthorized);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const kbId = String(form.get("kb") ?? "");
    try {
      const entry = await api.addFaqEntry(kbId, {
        question: String(form.get("question") ?? ""),
        answer: String(form.get("answer") ?? ""),
      });
      await api.noteFaqEntry(item.id, kbId, entry.id);
      onAdded({ kb_id: kbId, entry_id: entry.id });
    } catch (failure) {
      fail(failure);
    }
  };
  if (!open) {
    return (
      <button type="button" className="secondary" onClick={() => setOpen(true)}>
        {w.addFaq}
      </button>
    );
  }
  if (bases.length === 0) return <p className="muted">{w.noFaqBase}</p>;
  return (
    <form className="add-faq" onSubmit={(e) => void submit(e)}>
      <label>
        {w.faqBase}
        <select name="kb" defaultValue={bases[0]?.id}>
          {bases.map((kb) => (
            <option key={kb.id} value={kb.id}>
              {kb.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {w.question}
        <input name="question" required maxLength={500} defaultValue={item.question.slice(0, 500)} />
      </label>
      <label>
        {w.faqAnswer}
        <textarea name="answer" required maxLength={10000} />
      </label>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <div className="form-buttons">
        <button type="submit">{w.save}</button>
        <button type="button" className="secondary" onClick={() => setOpen(false)}>
          {w.cancel}
        </button>
      </div>
    </form>
  );
}
