import { type FormEvent, useState } from "react";
import type { StyleView } from "./api.ts";
import { FormFooter } from "./business-form-footer.tsx";
import type { Propose } from "./business-steps.ts";
import { businessWords } from "./business-words.ts";
import { useI18n } from "./i18n.ts";

/**
 * 车间资料 → a style's code (款号) and name: a new style (its processes are added under it), or a
 * style's code or name changed. Either is checked by the server before anything is written.
 */
export function StyleForm({
  style,
  locked,
  propose,
  onClose,
}: {
  /** The style to change; none for a new one. */
  style?: StyleView;
  locked: boolean;
  propose: Propose;
  onClose: () => void;
}) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  const [code, setCode] = useState(style?.code ?? "");
  const [name, setName] = useState(style?.name ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const [newCode, newName] = [code.trim(), name.trim()];
    if (style && newCode === style.code && newName === style.name) return setProblem(w.nothingChanged);
    setProblem(null);
    const change = style
      ? {
          change: "style_edit",
          style: style.id,
          ...(newCode !== style.code ? { code: newCode } : {}),
          ...(newName !== style.name ? { name: newName } : {}),
        }
      : { change: "style_add", code: newCode, name: newName };
    if (await propose("prices", change, style?.version)) onClose();
  };
  const title = style ? `${w.editStyle} ${style.code}` : w.addStyle;
  return (
    <form className="mcp-add business-form" aria-label={title} onSubmit={(e) => void send(e)}>
      <label>
        <span>{w.styleCode}</span>
        <input name="code" required maxLength={20} value={code} onChange={(e) => setCode(e.target.value)} />
      </label>
      <label>
        <span>{w.styleName}</span>
        <input name="name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <FormFooter problem={problem} locked={locked} onCancel={onClose} />
    </form>
  );
}
