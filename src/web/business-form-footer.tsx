import { businessWords } from "./business-words.ts";
import { useI18n } from "./i18n.ts";

/** The button a closed change form of 车间资料 stands as, which opens it. */
export function OpenFormButton({
  label,
  locked,
  primary = false,
  onOpen,
}: {
  label: string;
  locked: boolean;
  /** The page's main action (add an employee, record an adjustment); else secondary. */
  primary?: boolean;
  onOpen: () => void;
}) {
  return (
    <div className="mcp-actions">
      <button type="button" className={primary ? "primary" : "secondary"} disabled={locked} onClick={onOpen}>
        {label}
      </button>
    </div>
  );
}

/**
 * The end of every change form of 车间资料: what the page refused before asking the server, then
 * "下一步：看看会改什么" (the server's check follows) and 取消, which closes the form.
 */
export function FormFooter({ problem, locked, onCancel }: { problem: string | null; locked: boolean; onCancel: () => void }) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  return (
    <>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      <div className="mcp-actions">
        <button type="submit" className="primary" disabled={locked}>
          {w.submit}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          {w.cancel}
        </button>
      </div>
    </>
  );
}
