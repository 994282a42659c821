// The layers of src/, checked by `npm run deps` (part of `npm test`). Data flows one way:
//   faces (mcp, chat, routes, auth, jobs, app, the wiring in services.ts)
//     → tools (the registry and its runtime)
//       → domains (actions, business, consult, federation, search, tenants.ts)
//         → the neutral core (UserContext and role rules, errors, shared shapes, config, logging, printable names).
// The browser (src/web) shares only src/shapes.ts with the server, and only its types; and the words
// for statuses, src/status-words.ts, at run time: a module that imports nothing (see docs/layout.md).
const CORE =
  "^src/(user-context|workshop-db|workshop-objects|schema|permissions|errors|rpc-result|log|config|config-problems|db|sha256|validation|printable|work-count|cursor|shapes|status-words|preview-text)\\.ts$";
const DOMAINS = "^src/(actions|business|consult|federation|search|placement)/|^src/tenants\\.ts$";
const FACES = "^src/(mcp|chat|routes|auth|jobs)/|^src/(app|app-env|index|services)\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "An import cycle knots modules together: none in src/.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "core-stays-core",
      comment: "The neutral core imports nothing above it.",
      severity: "error",
      from: { path: CORE },
      to: { path: "^src/", pathNot: CORE },
    },
    {
      name: "domains-never-look-up",
      comment: "A domain never imports a face, the tool layer, the wiring (services.ts) or the browser.",
      severity: "error",
      from: { path: DOMAINS },
      to: { path: `${FACES}|^src/tools/|^src/web/` },
    },
    {
      name: "actions-know-no-kinds",
      comment: "The actions domain serves the others through its executor registry; it knows none of them.",
      severity: "error",
      from: { path: "^src/actions/" },
      to: { path: "^src/(business|consult|federation|search)/|^src/tenants\\.ts$" },
    },
    {
      name: "business-and-federation-apart",
      comment: "Business and federation each contribute executors; neither imports the other.",
      severity: "error",
      from: { path: "^src/(business|federation)/" },
      to: { path: "^src/(business|federation)/", pathNot: "^src/$1/" },
    },
    {
      name: "tools-below-faces",
      comment: "Tools are below the faces and the wiring: they receive services, they never build them.",
      severity: "error",
      from: { path: "^src/tools/" },
      to: { path: `${FACES}|^src/web/` },
    },
    {
      name: "wiring-for-faces-only",
      comment: "services.ts wires the domains once per request; only faces import it.",
      severity: "error",
      from: { path: "^src/", pathNot: FACES },
      to: { path: "^src/services\\.ts$" },
    },
    {
      name: "browser-shares-shapes-only",
      comment: "The browser imports server code only from src/shapes.ts (types) and src/status-words.ts (words).",
      severity: "error",
      from: { path: "^src/web/" },
      to: { path: "^src/", pathNot: "^src/web/|^src/(shapes|status-words)\\.ts$" },
    },
    {
      name: "browser-shares-types-only",
      comment: "…and only its types, so no server code reaches the bundle.",
      severity: "error",
      from: { path: "^src/web/" },
      to: { path: "^src/shapes\\.ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "status-words-stand-alone",
      comment: "The browser runs status-words.ts, so it imports nothing: no server code can ride along into the bundle.",
      severity: "error",
      from: { path: "^src/status-words\\.ts$" },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/env\\.d\\.ts$" },
    // TypeScript 7's compiler API is not out yet, so swc parses the sources. It keeps type-only
    // imports (marked "type-only"), so cycles and layers count them too.
    parser: "swc",
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
