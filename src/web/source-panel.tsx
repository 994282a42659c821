// A cited passage beside the conversation (a sheet from the bottom on a phone): its document, its
// knowledge base, where it sits, and its text with the sentences the answer quotes marked and in
// view. A chunk of its own, fetched on the first citation opened.
import { useEffect, useRef, useState } from "react";
import "./source-panel.css";
import type { CitedSource, PassageView } from "../shapes.ts";
import { api } from "./api.ts";
import { markQuotes } from "./citations.ts";
import type { Lang } from "./i18n.ts";
import { useI18n } from "./i18n.ts";
import { CloseIcon } from "./icons.tsx";

const WORDS: Record<
  Lang,
  { label: string; kb: string; file: string; where: string; page: (n: number) => string; close: string; failed: string }
> = {
  zh: {
    label: "引用的原文",
    kb: "知识库",
    file: "文件",
    where: "位置",
    page: (n: number) => `第 ${n} 页`,
    close: "关闭原文",
    failed: "没能打开这段原文：",
  },
  en: {
    label: "Cited passage",
    kb: "Knowledge base",
    file: "File",
    where: "Where",
    page: (n: number) => `page ${n}`,
    close: "Close the passage",
    failed: "Could not open this passage: ",
  },
};

interface Props {
  source: CitedSource;
  quotes: string[];
  onClose: () => void;
}

type Loaded = { passage: PassageView } | { error: string } | null;

/** The passage a citation names, fetched from the knowledge base; Esc or the button closes it. */
export default function SourcePanel({ source, quotes, onClose }: Props) {
  const { t, lang } = useI18n();
  const words = WORDS[lang];
  const [loaded, setLoaded] = useState<Loaded>(null);
  const close = useRef<HTMLButtonElement>(null);
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let current = true;
    setLoaded(null);
    api.passage(source.kb_id, source.chunk_id).then(
      (passage) => current && setLoaded({ passage }),
      (error: unknown) => current && setLoaded({ error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [source.kb_id, source.chunk_id]);

  // Focus comes to the panel, and goes back to the citation that opened it when it closes.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    close.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      opener?.focus();
    };
  }, [onClose]);

  useEffect(() => {
    if (loaded && "passage" in loaded) body.current?.querySelector("mark")?.scrollIntoView({ block: "center" });
  }, [loaded]);

  const passage = loaded && "passage" in loaded ? loaded.passage : null;
  return (
    <aside className="source-panel" role="dialog" aria-modal="false" aria-labelledby="source-panel-title">
      <header>
        <p className="muted source-label">{words.label}</p>
        <button ref={close} type="button" className="icon" aria-label={words.close} title={words.close} onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
      <h2 id="source-panel-title">{passage?.document_title ?? source.citation}</h2>
      {passage && (
        <dl className="source-where">
          <dt>{words.kb}</dt>
          <dd>{passage.kb_name}</dd>
          {(passage.page !== null || passage.sheet !== null) && (
            <>
              <dt>{words.file}</dt>
              <dd>{passage.filename}</dd>
              <dt>{words.where}</dt>
              <dd>{passage.page !== null ? words.page(passage.page) : passage.sheet}</dd>
            </>
          )}
        </dl>
      )}
      {passage?.heading_path && passage.heading_path !== passage.document_title && (
        <p className="source-path">{passage.heading_path.split(" > ").join(" › ")}</p>
      )}
      <div ref={body} className="source-text">
        {loaded === null && <p className="muted">{t.loading}</p>}
        {loaded && "error" in loaded && (
          <p className="error-text">
            {words.failed}
            {loaded.error}
          </p>
        )}
        {passage &&
          markQuotes(passage.content, quotes).map((piece, i) =>
            piece.quoted ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, in order, never reordered.
              <mark key={i}>{piece.text}</mark>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: as above.
              <span key={i}>{piece.text}</span>
            ),
          )}
      </div>
    </aside>
  );
}
