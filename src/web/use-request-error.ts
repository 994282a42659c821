import { useCallback, useState } from "react";
import { ApiError } from "./api-error.ts";

/**
 * What a settings section does with a failed request: a lost sign-in (401) goes back to signing
 * in; anything else becomes the section's error line, Weft's message being safe to show.
 */
export function useRequestError(onUnauthorized: () => void) {
  const [error, setError] = useState<string | null>(null);
  const fail = useCallback(
    (e: unknown) => {
      if (e instanceof ApiError && e.status === 401) onUnauthorized();
      else setError(e instanceof Error ? e.message : String(e));
    },
    [onUnauthorized],
  );
  return { error, setError, fail };
}
