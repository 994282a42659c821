import { useCallback, useEffect, useMemo, useState } from "react";
import type { ConfirmCardData, PendingAction } from "../shapes.ts";
import { outcomeOfAnswer, outcomeOfError, undecided } from "./action-outcome.ts";
import { ApiError, api } from "./api.ts";
import { ConfirmCard } from "./confirm-card.tsx";
import { viaOfSearch } from "./confirm-page-path.ts";
import { useI18n } from "./i18n.ts";
import { OUTCOME_TEXT_EN, OUTCOME_TEXT_ZH } from "./outcome-text.ts";
import { resultLabels } from "./result-labels.ts";
import { useToolWords } from "./tool-words.ts";

type Loaded =
  | { state: "loading" }
  | { state: "missing" }
  | { state: "failed"; message: string }
  | { state: "ready"; card: ConfirmCardData };

function cardOf(view: PendingAction): ConfirmCardData {
  return view.error ? { ...view, outcome: view.error.message } : view;
}

/**
 * The confirm page, `/actions/:id`: an agent's prepared write shown to its owner after sign-in,
 * with Confirm and Cancel. It is how a person says yes to what an MCP client prepared when the
 * client may not ask them itself; the link comes from the prepare result, from `confirm_action`,
 * or from a URL elicitation (then `?via=url_elicitation`, which the audit records as the path).
 */
export function ConfirmPage({ actionId, onUnauthorized }: { actionId: string; onUnauthorized: () => void }) {
  const { t, lang } = useI18n();
  const toolWords = useToolWords();
  const text = useMemo(
    () => ({ ...(lang === "zh" ? OUTCOME_TEXT_ZH : OUTCOME_TEXT_EN), labels: resultLabels(toolWords, lang) }),
    [lang, toolWords],
  );
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [via] = useState(() => viaOfSearch(location.search));

  useEffect(() => {
    api
      .getAction(actionId)
      .then((view) => setLoaded({ state: "ready", card: cardOf(view) }))
      .catch((error) => {
        if (error instanceof ApiError && error.status === 401) return onUnauthorized();
        if (error instanceof ApiError && error.status === 404) return setLoaded({ state: "missing" });
        setLoaded({ state: "failed", message: error instanceof Error ? error.message : String(error) });
      });
  }, [actionId, onUnauthorized]);

  const decide = useCallback(
    async (id: string, decision: "confirm" | "cancel"): Promise<string | null> => {
      try {
        const outcome = outcomeOfAnswer(await api.decideAction(id, decision, { via, lang }), decision, text);
        setLoaded((now) =>
          now.state === "ready"
            ? { state: "ready", card: { ...now.card, status: outcome.status, outcome: outcome.result } }
            : now,
        );
        return null;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          onUnauthorized();
          return null;
        }
        const outcome = outcomeOfError(error, text);
        if (undecided(outcome.status)) return outcome.result ?? t.confirmPage.tryAgain;
        setLoaded((now) =>
          now.state === "ready"
            ? { state: "ready", card: { ...now.card, status: outcome.status, outcome: outcome.result } }
            : now,
        );
        return null;
      }
    },
    [text, t, lang, via, onUnauthorized],
  );

  return (
    <main className="confirm-page">
      <h1>{t.confirmPage.title}</h1>
      <p className="muted">{t.confirmPage.intro(loaded.state === "ready" ? loaded.card.prepared_in : undefined)}</p>
      {loaded.state === "loading" && <p className="muted">…</p>}
      {loaded.state === "missing" && <p role="alert">{t.confirmPage.missing}</p>}
      {loaded.state === "failed" && (
        <p className="error-text" role="alert">
          {loaded.message}
        </p>
      )}
      {loaded.state === "ready" && <ConfirmCard data={loaded.card} onDecide={decide} />}
      <p>
        <a href="/">{t.confirmPage.backToChat}</a>
      </p>
    </main>
  );
}
