/**
 * The inline "are you sure?" row a settings list shows before something it cannot undo (revoking a
 * key, removing a server): the question, the action in red, and a cancel that takes the focus, so
 * Enter or a second click does not finish the job by accident.
 */
export function AskAgain({
  question,
  actionLabel,
  cancelLabel,
  onAction,
  onCancel,
}: {
  question: string;
  actionLabel: string;
  cancelLabel: string;
  onAction: () => void;
  onCancel: () => void;
}) {
  return (
    <div className="mcp-actions confirming">
      <span>{question}</span>
      <button type="button" className="danger" onClick={onAction}>
        {actionLabel}
      </button>
      {/* biome-ignore lint/a11y/noAutofocus: the question appears because the person asked for it. */}
      <button type="button" className="secondary" autoFocus onClick={onCancel}>
        {cancelLabel}
      </button>
    </div>
  );
}
