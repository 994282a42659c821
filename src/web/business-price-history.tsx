import type { ProcessView } from "./api.ts";
import { businessWords } from "./business-words.ts";
import { useI18n } from "./i18n.ts";

/**
 * A process's prices over time, oldest first: each from its day (the first "at first"), who set it,
 * and a change replaced by a later one for the same day marked as such. Records keep the price of
 * their work day, so this is what explains an older payslip.
 */
export function PriceHistory({ process }: { process: ProcessView }) {
  const { lang } = useI18n();
  const w = businessWords(lang);
  return (
    <ol className="business-history" aria-label={`${w.history} ${process.name}`}>
      {process.prices.map((price) => (
        <li key={`${price.set_at}-${price.from ?? ""}`} data-replaced={price.replaced || undefined}>
          <span>{price.from ? w.historyFrom(price.from) : w.historyFirst}</span>{" "}
          <strong>{w.priceNow(price.unit_price.yuan)}</strong>
          {price.replaced && <span className="muted">{w.historyReplaced}</span>}
          {price.set_by && <span className="muted"> · {w.historySetBy(price.set_by)}</span>}
        </li>
      ))}
    </ol>
  );
}
