import { type ComponentType, lazy, Suspense } from "react";
import { useI18n } from "./i18n.ts";
import type { MarkdownProps } from "./markdown.tsx";

/** The text as it came, for while the renderer loads and for good if it cannot be fetched. */
function PlainText({ text }: MarkdownProps) {
  return <div className="markdown plain-text">{text}</div>;
}

/**
 * The text when the renderer could not be fetched, with a way back to formatting. A reload is the
 * only retry: the browser keeps a failed module import failed for the life of the page.
 */
function Unformatted(props: MarkdownProps) {
  const { t } = useI18n();
  return (
    <>
      <PlainText {...props} />
      <p className="muted format-failed">
        {t.formatLoadFailed}{" "}
        <button type="button" className="link" onClick={() => location.reload()}>
          {t.reload}
        </button>
      </p>
    </>
  );
}

let renderer: Promise<{ default: ComponentType<MarkdownProps> }> | undefined;

/**
 * Fetches the Markdown renderer once. A failed fetch leaves answers readable as plain text rather
 * than breaking the conversation, so it never rejects.
 */
export function preloadMarkdown(): Promise<{ default: ComponentType<MarkdownProps> }> {
  renderer ??= import("./markdown.tsx").catch(() => ({ default: Unformatted }));
  return renderer;
}

const LazyMarkdown = lazy(preloadMarkdown);

/** An answer's text as Markdown, shown as plain text until the renderer's chunk has arrived. */
export function Markdown(props: MarkdownProps) {
  return (
    <Suspense fallback={<PlainText {...props} />}>
      <LazyMarkdown {...props} />
    </Suspense>
  );
}
