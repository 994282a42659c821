import { useId, useState } from "react";
import type { ConfirmBy } from "./api.ts";
import { useI18n } from "./i18n.ts";
import { settingsWords } from "./settings-words.ts";

const CHOICES: ConfirmBy[] = ["weft", "client", "agent"];

/**
 * Who says yes to the writes a key or a connected app prepares (`confirm_by`): a choice, with one
 * line under it saying what the current choice trusts. The choice shows the person's pick at once;
 * the server's answer takes over once it has answered.
 */
export function ConfirmByChoice({ value, onChange }: { value: ConfirmBy; onChange: (value: ConfirmBy) => Promise<void> }) {
  const { lang } = useI18n();
  const w = settingsWords(lang);
  const trustsId = useId();
  const [asked, setAsked] = useState<ConfirmBy | null>(null);
  const shown = asked ?? value;
  const choose = (next: ConfirmBy) => {
    setAsked(next);
    void onChange(next).finally(() => setAsked(null));
  };
  return (
    <div className="confirm-by">
      <label>
        <span>{w.confirmByLabel}</span>
        <select
          className="confirm-by-select"
          value={shown}
          disabled={asked !== null}
          aria-describedby={trustsId}
          onChange={(e) => choose(e.target.value as ConfirmBy)}
        >
          {CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {w.confirmByOption[choice]}
            </option>
          ))}
        </select>
      </label>
      <p className="muted confirm-by-trusts" id={trustsId}>
        {w.confirmByTrusts[shown]}
      </p>
    </div>
  );
}
