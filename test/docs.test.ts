// The README and docs/ are read by people who copy their commands and routes: every `npm run` they
// name must be a script, and every route they name must be one the app serves. Their text is passed
// in by vitest.config.ts, since the Workers runtime has no file system.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEMO } from "../scripts/demo-data.ts";
import { keys } from "./fixtures.ts";
import { call } from "./helpers.ts";

const README_MAX_LINES = 260;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/** Every `npm run X` a page names, as X. */
function npmScriptsNamed(text: string): string[] {
  return [...text.matchAll(/npm run ([a-z][\w:-]*\w)/g)].map((m) => m[1] as string);
}

/**
 * A named path made requestable: the query dropped, each placeholder (`:id`, `<id>`, `$KB`) an id;
 * an optional part (`/faq[/:entryId]`) gives the path without it and the path with it.
 */
function requestablePaths(named: string): string[] {
  const path = named.replace(/\?.*$/, "").replace(/[.:,]+$/, "");
  const variants = path.includes("[") ? [path.replace(/\[.*$/, ""), path.replace(/[[\]]/g, "")] : [path];
  return variants.map((variant) =>
    variant
      .split("/")
      .map((segment) => (/^[:<${]/.test(segment) || segment.includes("<") ? "x" : segment))
      .join("/"),
  );
}

const SERVED_PREFIX = String.raw`/(?:api|mcp|healthz)\b[^\s\x60"'),;]*`;

/**
 * The routes a page names: with a method (`POST /api/chat`, also `GET`, `PUT`, `DELETE /x`), and
 * without one, as a code span (`/api/chats`) or inside a URL of Weft (`http://localhost:8787/api/...`).
 * Patterns (`/api/*`) are not routes.
 */
function routesNamed(text: string): { method: Method | undefined; paths: string[]; named: string }[] {
  const withMethod = [...text.matchAll(new RegExp(`\\b(${METHODS.join("|")}) (${SERVED_PREFIX})`, "g"))].map((m) => ({
    method: m[1] as Method,
    named: m[2] as string,
  }));
  const spans = [...text.matchAll(new RegExp(`\x60(${SERVED_PREFIX})\x60`, "g"))].map((m) => m[1] as string);
  const weftUrl = String.raw`https?://(?:localhost|127\.0\.0\.1|[\w.<>-]*weft[\w.<>-]*)(?::\d+)?`;
  const urls = [...text.matchAll(new RegExp(`${weftUrl}(${SERVED_PREFIX})`, "g"))].map((m) => m[1] as string);
  const bare = [...spans, ...urls].map((named) => ({ method: undefined, named }));
  return [...withMethod, ...bare]
    .filter((route) => !route.named.includes("*"))
    .map((route) => ({ ...route, paths: requestablePaths(route.named) }));
}

/** Every project path a page names in a code span (`src/app.ts`, `knowledge/docs/`). */
function pathsNamed(text: string): string[] {
  return [...text.matchAll(/\x60((?:src|scripts|test|knowledge|migrations|docs)\/[^\s\x60*]*)\x60/g)].map((m) => m[1] as string);
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a page's headings (outside code blocks). */
function anchorsOf(markdown: string): string[] {
  let inCode = false;
  const anchors: string[] = [];
  for (const line of markdown.split("\n")) {
    if (line.startsWith("\x60\x60\x60")) inCode = !inCode;
    const heading = /^#+ (.*)$/.exec(line);
    if (!inCode && heading) anchors.push(anchorOf(heading[1] as string));
  }
  return anchors;
}

/** The local links of a page (`[x](api.md#roles)`, `[y](#sessions)`), as the target page's path and the anchor. */
function linksOf(page: { path: string; content: string }): { target: string; anchor: string | undefined }[] {
  const folder = page.path.includes("/") ? page.path.slice(0, page.path.lastIndexOf("/") + 1) : "";
  return [...page.content.matchAll(/\]\(([\w./-]+\.md)?(?:#([^)]+))?\)/g)]
    .filter((m) => m[1] !== undefined || m[2] !== undefined)
    .map((m) => ({ target: m[1] === undefined ? page.path : `${folder}${m[1]}`, anchor: m[2] }));
}

/** Whether the app has a route for this method and path: anything but its own "No route" 404 counts. */
async function served(method: Method, path: string): Promise<boolean> {
  const res = await call(path, { method, key: keys.admin });
  const text = await res.text();
  return !(res.status === 404 && text.includes("No route for"));
}

describe("the README and docs/", () => {
  const pages = env.TEST_DOCS;

  it("are passed in: the README and a page for each part", () => {
    const paths = pages.map((p) => p.path);
    expect(paths).toContain("README.md");
    for (const page of ["api", "mcp", "chat", "knowledge", "business", "federation", "deployment", "benchmarks", "layout"]) {
      expect(paths).toContain(`docs/${page}.md`);
    }
  });

  it(`keep the README at most ${README_MAX_LINES} lines`, () => {
    const readme = pages.find((p) => p.path === "README.md")?.content ?? "";
    expect(readme.split("\n").length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("name only npm scripts that package.json has", () => {
    const missing = pages.flatMap((page) =>
      npmScriptsNamed(page.content)
        .filter((name) => !env.TEST_NPM_SCRIPTS.includes(name))
        .map((name) => `${page.path}: npm run ${name}`),
    );
    expect(missing).toEqual([]);
    expect(pages.flatMap((page) => npmScriptsNamed(page.content))).toContain("dev");
  });

  it("name only routes the app serves", async () => {
    const missing: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const route of routesNamed(page.content)) {
        checked++;
        const methods = route.method ? [route.method] : METHODS;
        let found = false;
        for (const method of methods) {
          for (const path of route.paths) found ||= await served(method, path);
        }
        if (!found) missing.push(`${page.path}: ${route.method ?? "(any method)"} ${route.named}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });
});

describe("the README and docs/ name files that exist", () => {
  it("every project path, unless git ignores it", () => {
    const missing = env.TEST_DOCS.flatMap((page) =>
      pathsNamed(page.content)
        .filter((path) => !env.TEST_REPO_PATHS.includes(path) && !env.TEST_REPO_PATHS.includes(`${path}/`))
        .filter((path) => !env.TEST_GIT_IGNORED.some((ignored) => path.startsWith(ignored)))
        .map((path) => `${page.path}: ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it("every page and heading they link to", () => {
    const pages = new Map(env.TEST_DOCS.map((page) => [page.path, page.content]));
    const broken = env.TEST_DOCS.flatMap((page) =>
      linksOf(page)
        .filter(({ target, anchor }) => {
          const content = pages.get(target);
          return content === undefined || (anchor !== undefined && !anchorsOf(content).includes(anchor));
        })
        .map(({ target, anchor }) => `${page.path}: ${target}${anchor ? `#${anchor}` : ""}`),
    );
    expect(broken).toEqual([]);
  });
});

describe("docs/development.md", () => {
  it("lists every demo person's key, sign-in and workshop as scripts/demo-data.ts has them", () => {
    const lines = (env.TEST_DOCS.find((page) => page.path === "docs/development.md")?.content ?? "").split("\n");
    const rowWith = (...cells: string[]) => lines.find((line) => cells.every((cell) => line.includes(cell)));
    for (const user of DEMO.users) {
      const workshop = DEMO.tenants.find((t) => t.id === user.tenantId)?.name ?? "";
      const row = rowWith(`\`${user.key}\``, user.role, user.name, workshop);
      expect(row).toBeDefined();
      // Who says yes to the key's writes, as the seed sets it.
      expect(row?.split("|")[5]?.trim().startsWith(`\`${user.confirmBy}\``), user.key).toBe(true);
      expect(rowWith(`\`${user.username}\``, `\`${user.password}\``, user.name, workshop)).toBeDefined();
    }
  });
});

describe("the docs checks themselves", () => {
  it("make anchors as GitHub does and read links relative to their page", () => {
    expect(anchorOf("FAQ entries and synonym lists get the same true answers, and `If-Match`")).toBe(
      "faq-entries-and-synonym-lists-get-the-same-true-answers-and-if-match",
    );
    expect(anchorOf("Demo workshops, keys and passwords")).toBe("demo-workshops-keys-and-passwords");
    expect(linksOf({ path: "docs/a.md", content: "see [b](b.md#roles), [c](c.md), [d](#here) and [e](https://x.org)" })).toEqual([
      { target: "docs/b.md", anchor: "roles" },
      { target: "docs/c.md", anchor: undefined },
      { target: "docs/a.md", anchor: "here" },
    ]);
    expect(pathsNamed("`src/app.ts`, `knowledge/docs/`, `test/**`, src/bare.ts")).toEqual(["src/app.ts", "knowledge/docs/"]);
  });

  it("read a route with its method, placeholders and query, and one in a URL or a code span", () => {
    expect(routesNamed("`GET /api/chats?limit=&cursor=` and `DELETE /api/keys/:id`.")).toEqual([
      { method: "GET", named: "/api/chats?limit=&cursor=", paths: ["/api/chats"] },
      { method: "DELETE", named: "/api/keys/:id", paths: ["/api/keys/x"] },
    ]);
    expect(routesNamed("curl -s http://localhost:8787/api/knowledge-bases/$KB/documents -F file=@a.md")).toEqual([
      { method: undefined, named: "/api/knowledge-bases/$KB/documents", paths: ["/api/knowledge-bases/x/documents"] },
    ]);
    expect(routesNamed("POST/PUT/DELETE /api/knowledge-bases/:id/faq[/:entryId]")[0]?.paths).toEqual([
      "/api/knowledge-bases/x/faq",
      "/api/knowledge-bases/x/faq/x",
    ]);
    expect(routesNamed("it answers at `/mcp`.")[0]).toEqual({ method: undefined, named: "/mcp", paths: ["/mcp"] });
    expect(routesNamed("src/mcp/ and `scripts/x.ts`, `/api/*`, https://open.bigmodel.cn/api/paas/v4")).toEqual([]);
  });

  it("read npm scripts with colons and arguments", () => {
    expect(npmScriptsNamed("`npm run knowledge:ship -- --remote` and npm run dev.")).toEqual(["knowledge:ship", "dev"]);
  });

  it("tell a route the app lacks from one it serves", async () => {
    expect(await served("GET", "/api/no-such-thing")).toBe(false);
    expect(await served("POST", "/api/chats")).toBe(false);
    expect(await served("GET", "/api/chats")).toBe(true);
  });
});
