// What a browser fetches to show a page: every script and stylesheet response, with its size as gzip
// would send it, so the figure does not depend on whether the dev server compresses.
import { gzipSync } from "node:zlib";
import type { Page, Response } from "playwright-core";

export interface Fetched {
  url: string;
  bytes: number;
  gzip: number;
}

/** Records the scripts and stylesheets a page fetches from now on; `take()` returns and clears them. */
export function recordAssets(page: Page): { take(): Promise<Fetched[]> } {
  let pending: Promise<Fetched | null>[] = [];
  const onResponse = (response: Response) => {
    const type = response.request().resourceType();
    if (type !== "script" && type !== "stylesheet") return;
    pending.push(
      response.body().then(
        (body) => ({ url: new URL(response.url()).pathname, bytes: body.length, gzip: gzipSync(body).length }),
        () => null,
      ),
    );
  };
  page.on("response", onResponse);
  return {
    async take() {
      const taken = pending;
      pending = [];
      return (await Promise.all(taken)).filter((f): f is Fetched => f !== null);
    },
  };
}

/** The sum of the gzip sizes. */
export const gzipTotal = (fetched: Fetched[]) => fetched.reduce((sum, f) => sum + f.gzip, 0);
