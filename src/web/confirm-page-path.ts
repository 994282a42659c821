// Pure, with no browser globals, so the Worker tests can run it.

/** The action a confirm page's path names (`/actions/<64 hex digits>`), or null for any other path. */
export function actionIdOfPath(pathname: string): string | null {
  return pathname.match(/^\/actions\/([0-9a-f]{64})\/?$/)?.[1] ?? null;
}
