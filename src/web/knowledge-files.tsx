import { type DragEvent, useCallback, useEffect, useRef, useState } from "react";
import { statusWord } from "../status-words.ts";
import { ApiError, api, type KnowledgeBase, type KnowledgeDocument } from "./api.ts";
import { useI18n } from "./i18n.ts";
import { DOCUMENT_STATUS_WORDS, fileProblemText, knowledgeWords, PROGRESS_UNIT_WORDS } from "./knowledge-words.ts";
import { useRequestError } from "./use-request-error.ts";

const WORKING = new Set(["queued", "parsing", "indexing", "processing"]);
const POLL_MS = 1500;
const ACCEPT = ".pdf,.docx,.xlsx,.xls,.csv,.md,.markdown,.txt,.html,.htm,.png,.jpg,.jpeg,.webp";

/**
 * The workshop's knowledge files (boss and admin): each document of a base with its status, a
 * progress bar while the ingestion job reads it, and why it failed, in the person's language; and
 * uploads of several files at once, dropped on the section (desktop) or picked (a phone's picker).
 * Each file is its own upload, so one refused file never stops the others.
 */
export function KnowledgeFiles({ onUnauthorized }: { onUnauthorized: () => void }) {
  const { t, lang } = useI18n();
  const w = knowledgeWords(lang);
  const [bases, setBases] = useState<KnowledgeBase[] | null>(null);
  const [kbId, setKbId] = useState<string>("");
  const [documents, setDocuments] = useState<KnowledgeDocument[] | null>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const [notes, setNotes] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const { error, fail } = useRequestError(onUnauthorized);

  useEffect(() => {
    api.knowledgeBases().then((r) => {
      const docs = r.knowledge_bases.filter((kb) => kb.type !== "faq");
      setBases(docs);
      setKbId((current) => current || docs[0]?.id || "");
    }, fail);
  }, [fail]);

  const load = useCallback(() => {
    if (!kbId) return Promise.resolve();
    return api.documents(kbId).then((r) => setDocuments(r.documents), fail);
  }, [kbId, fail]);

  useEffect(() => {
    setDocuments(null);
    void load();
  }, [load]);

  // While a document is being read, ask again until none is.
  const working = documents?.some((d) => WORKING.has(d.status)) ?? false;
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [working, load]);

  const upload = async (files: File[]) => {
    const said: string[] = [];
    for (const file of files) {
      setUploading(file.name);
      try {
        const outcome = await api.uploadDocument(kbId, file);
        if (outcome.status === "unchanged") said.push(w.unchanged(file.name));
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) return onUnauthorized();
        said.push(w.uploadFailed(file.name) + problemText(e, lang));
      }
      await load();
    }
    setUploading(null);
    setNotes(said);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void upload([...event.dataTransfer.files]);
  };

  return (
    <section className="settings-section knowledge-files" aria-labelledby="knowledge-title">
      <h3 id="knowledge-title">{w.knowledge}</h3>
      <p className="muted">{w.knowledgeLead}</p>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {bases === null ? (
        !error && <p className="muted">{t.loading}</p>
      ) : bases.length === 0 ? (
        <p className="muted">{w.noBases}</p>
      ) : (
        <>
          {bases.length > 1 && (
            <label className="kb-pick">
              {w.base}
              <select value={kbId} onChange={(e) => setKbId(e.target.value)}>
                {bases.map((kb) => (
                  <option key={kb.id} value={kb.id}>
                    {kb.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop zone is for a mouse; its button and picker serve everyone */}
          <div
            className={dragging ? "drop-zone dragging" : "drop-zone"}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <p>
              {w.dropHere}{" "}
              <button type="button" className="secondary" onClick={() => picker.current?.click()} disabled={uploading !== null}>
                {w.choose}
              </button>
            </p>
            <input
              ref={picker}
              type="file"
              multiple
              accept={ACCEPT}
              hidden
              onChange={(e) => {
                const files = [...(e.target.files ?? [])];
                e.target.value = "";
                void upload(files);
              }}
            />
            <p className="muted formats">{w.formats}</p>
            {uploading && (
              <p className="muted" role="status">
                {w.uploading(uploading)}
              </p>
            )}
          </div>
          {notes.map((note) => (
            <p key={note} className="error-text" role="alert">
              {note}
            </p>
          ))}
          {documents !== null && documents.length === 0 && <p className="muted">{w.noDocuments}</p>}
          {documents !== null && documents.length > 0 && (
            <ul className="documents">
              {documents.map((d) => (
                <DocumentItem key={d.id} document={d} lang={lang} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function DocumentItem({ document: d, lang }: { document: KnowledgeDocument; lang: "zh" | "en" }) {
  const w = knowledgeWords(lang);
  const reason = d.error_reason ? fileProblemText(d.error_reason, d.error_params ?? {}, lang) : d.error;
  const progress = d.progress;
  return (
    <li data-status={d.status}>
      <span className="document-name">{d.filename}</span>
      <span className={`badge document-status status-${d.status}`}>{statusWord(DOCUMENT_STATUS_WORDS, d.status, lang)}</span>
      {d.status === "ready" && <span className="muted">{w.chunks(d.chunk_count)}</span>}
      {progress && (
        <span className="document-progress">
          <progress
            aria-label={w.progressLabel(d.filename)}
            value={progress.done}
            max={Math.max(progress.total ?? 0, progress.done, 1)}
          />
          <span className="muted">
            {progress.done}
            {progress.total ? ` / ${progress.total}` : ""} {statusWord(PROGRESS_UNIT_WORDS, progress.unit, lang)}
          </span>
        </span>
      )}
      {reason && (
        <span className="error-text document-reason">{d.status === "ready" ? w.replacementRefused + reason : reason}</span>
      )}
    </li>
  );
}

/** Why an upload was refused, in the person's language when the server named the reason. */
function problemText(e: unknown, lang: "zh" | "en"): string {
  if (!(e instanceof ApiError)) return e instanceof Error ? e.message : String(e);
  const problem = (e.body as { error?: { details?: { problem?: { reason?: unknown; params?: unknown } } } })?.error?.details
    ?.problem;
  if (typeof problem?.reason !== "string") return e.message;
  return fileProblemText(problem.reason, (problem.params ?? {}) as Record<string, unknown>, lang);
}
