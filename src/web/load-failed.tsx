import { Component, type ReactNode } from "react";
import { useI18n } from "./i18n.ts";

function LoadFailed() {
  const { t } = useI18n();
  return (
    <div className="error-banner load-failed" role="alert">
      <span>{t.partLoadFailed}</span>
      <button type="button" className="secondary" onClick={() => location.reload()}>
        {t.reload}
      </button>
    </div>
  );
}

/**
 * Shows a notice with a reload button in place of its children when they throw, as a lazily loaded
 * part does when its script cannot be fetched (a dropped connection, or a deploy that replaced it).
 * A reload is the retry: React keeps a failed lazy import failed for the life of the page.
 */
export class LoadBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <LoadFailed /> : this.props.children;
  }
}
