import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import type { KnowledgeBase } from "./api.ts";
import { useI18n } from "./i18n.ts";
import { filterByName, findMention, type MentionMatch, removeMention } from "./mention.ts";

export type ChosenKb = Pick<KnowledgeBase, "id" | "name">;

interface Props {
  knowledgeBases: KnowledgeBase[];
  chosen: ChosenKb[];
  onChoose: (kbs: ChosenKb[]) => void;
  busy: boolean;
  /** Text put back into the box (a question the server did not take); a new object each time. */
  draft?: { text: string } | null;
  onSend: (text: string) => void;
  onStop: () => void;
}

/**
 * The message box. `@` opens the knowledge-base picker (↑ ↓ to move, Enter to pick, Esc to close);
 * text being composed with an input method never opens it, and Enter that commits a composition
 * neither picks nor sends, as the seed's picker got wrong.
 */
export function Composer({ knowledgeBases, chosen, onChoose, busy, draft, onSend, onStop }: Props) {
  const { t } = useI18n();
  const listId = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const composing = useRef(false);
  const [text, setText] = useState("");
  // A phone's or tablet's keyboard: no Shift+Enter to speak of, and Enter is its new line.
  const [touch] = useState(() => typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches);
  const [mention, setMention] = useState<MentionMatch | null>(null);
  const [active, setActive] = useState(0);

  useEffect(() => {
    if (draft?.text) setText(draft.text);
  }, [draft]);

  const chosenIds = new Set(chosen.map((kb) => kb.id));
  const matches = mention ? filterByName(knowledgeBases, mention.query, chosenIds) : [];
  const open = mention !== null;

  // Where the caret goes once the picked mention is gone from the text. Set right after React
  // writes the new value, before the browser handles the next key: in a later animation frame, a
  // key typed quickly after the pick went in first and the caret then jumped back in front of it.
  const caretAfterPick = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = textarea.current;
    const caret = caretAfterPick.current;
    if (caret === null || !el) return;
    caretAfterPick.current = null;
    el.focus();
    el.setSelectionRange(caret, caret);
  });

  const detect = (value: string, caret: number) => {
    const found = findMention(value, caret);
    setMention(found);
    if (found?.query !== mention?.query) setActive(0);
  };

  const pick = (kb: KnowledgeBase) => {
    const el = textarea.current;
    if (!mention || !el) return;
    const next = removeMention(text, mention.start, el.selectionStart);
    setText(next.text);
    setMention(null);
    onChoose([...chosen, { id: kb.id, name: kb.name }]);
    caretAfterPick.current = next.caret;
  };

  const send = () => {
    const message = text.trim();
    if (!message || busy) return;
    onSend(message);
    setText("");
    setMention(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // keyCode 229 is how some browsers flag keys that belong to an input method while composing.
    if (event.nativeEvent.isComposing || composing.current || event.keyCode === 229) return;
    if (open) {
      if (event.key === "ArrowDown") {
        event.preventDefault();
        setActive((i) => Math.min(i + 1, Math.max(matches.length - 1, 0)));
        return;
      }
      if (event.key === "ArrowUp") {
        event.preventDefault();
        setActive((i) => Math.max(i - 1, 0));
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        const kb = matches[active];
        if (kb) {
          event.preventDefault();
          pick(kb);
          return;
        }
      }
      if (event.key === "Escape") {
        event.preventDefault();
        setMention(null);
        return;
      }
    }
    // A touch keyboard's Enter starts a new line, as on every phone; its send button sends.
    if (event.key === "Enter" && !event.shiftKey && !touch) {
      event.preventDefault();
      send();
    }
  };

  const activeId = open && matches[active] ? `${listId}-${matches[active].id}` : undefined;

  return (
    <div className="composer">
      {chosen.length > 0 && (
        <ul className="kb-tags" aria-label={t.selectedKbs}>
          {chosen.map((kb) => (
            <li key={kb.id} className="kb-tag" data-kb-id={kb.id}>
              <span>@{kb.name}</span>
              <button
                type="button"
                aria-label={t.removeKb(kb.name)}
                onClick={() => onChoose(chosen.filter((c) => c.id !== kb.id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <div className="mention-popup">
          {matches.length === 0 ? (
            <p className="mention-empty">{t.noKbMatch}</p>
          ) : (
            <div id={listId} role="listbox" aria-label={t.kbPicker} className="mention-list">
              {matches.map((kb, index) => (
                <div
                  key={kb.id}
                  id={`${listId}-${kb.id}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={index === active}
                  data-kb-id={kb.id}
                  onMouseDown={(event) => {
                    // Keep the focus in the textarea, whose caret marks the `@` being replaced.
                    event.preventDefault();
                    pick(kb);
                  }}
                  onMouseEnter={() => setActive(index)}
                >
                  <span className="kb-name">{kb.name}</span>
                  <small>{kb.type === "faq" ? t.faqEntries(kb.document_count) : t.documents(kb.document_count)}</small>
                </div>
              ))}
            </div>
          )}
        </div>
      )}
      <div className="composer-row">
        <textarea
          ref={textarea}
          value={text}
          rows={2}
          placeholder={touch ? t.placeholderTouch : t.placeholder}
          aria-label={t.messageLabel}
          role="combobox"
          aria-expanded={open && matches.length > 0}
          aria-controls={open ? listId : undefined}
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          onChange={(event) => {
            setText(event.target.value);
            // While an input method composes, the text is provisional: it must not open or steer the picker.
            if ((event.nativeEvent as InputEvent).isComposing || composing.current) return;
            detect(event.target.value, event.target.selectionStart);
          }}
          onCompositionStart={() => {
            composing.current = true;
          }}
          onCompositionEnd={(event) => {
            composing.current = false;
            // Committed text may narrow a picker that is already open; it never opens one.
            if (mention) detect(event.currentTarget.value, event.currentTarget.selectionStart);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setMention(null)}
        />
        {busy ? (
          <button type="button" className="stop" onClick={onStop}>
            {t.stop}
          </button>
        ) : (
          <button type="button" className="primary send" onClick={send} disabled={!text.trim()}>
            {t.send}
          </button>
        )}
      </div>
    </div>
  );
}
