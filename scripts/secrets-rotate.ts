// npm run secrets:rotate [-- --config PATH] [--settle SECONDS]
// Rotates the production MCP_SECRETS_KEY without losing a stored secret (external servers' header
// values and OAuth tokens), in four steps: a new random key goes in as MCP_SECRETS_KEY_NEXT (the
// Worker then seals with it and opens with either), every database's secrets are sealed again with
// it through the operator's API (twice, `--settle` seconds apart, for writes of isolates that still
// ran the version before), it becomes MCP_SECRETS_KEY, and MCP_SECRETS_KEY_NEXT is deleted. The
// deployment is WEFT_URL (else PUBLIC_URL of [env.production.vars]) with the operator key in
// WEFT_OPERATOR_KEY. The new key is never printed; it waits in a file only this user reads
// (.weft-secrets-rotation) until the rotation ends, so running the command again after an
// interruption goes on with the same key.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { requireLogin, secretNames, wranglerOutput } from "./deploy/account.ts";
import { readProductionConfig } from "./deploy/production-config.ts";
import { ROOT, requireNode22, WRANGLER_TOML } from "./lib.ts";

requireNode22();
const { values } = parseArgs({
  options: {
    config: { type: "string", default: WRANGLER_TOML },
    settle: { type: "string", default: "60" },
    "key-file": { type: "string", default: join(ROOT, ".weft-secrets-rotation") },
  },
});
const configPath = resolve(values.config);
const keyFile = resolve(values["key-file"]);

/** What one reseal step answers (src/routes/admin.ts). */
interface ResealStep {
  database: string;
  resealed: number;
  current: number;
  unreadable: { tenant_id: string; server_id: string; what: string }[];
  rotating: boolean;
  next_cursor: string | null;
}

const putSecret = (name: string, value: string) =>
  wranglerOutput(["secret", "put", name, "--env", "production", "-c", configPath], value);

async function reseal(base: string, operatorKey: string, cursor: string | null): Promise<ResealStep> {
  const res = await fetch(`${base}/api/admin/secrets/reseal`, {
    method: "POST",
    headers: { Authorization: `Bearer ${operatorKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ cursor }),
  });
  const answer = (await res.json()) as ResealStep & { error?: { message: string } };
  if (!res.ok) throw new Error(`The deployment refused to reseal (${res.status}): ${answer.error?.message ?? "no reason given"}`);
  return answer;
}

/**
 * One pass over every database. The first step is asked again (every 3 s, up to two minutes) until
 * the Worker answers that it is rotating: a secret put deploys a new version, which takes seconds
 * to reach every location.
 */
async function pass(base: string, operatorKey: string) {
  const totals = { resealed: 0, current: 0, unreadable: [] as ResealStep["unreadable"] };
  let step = await reseal(base, operatorKey, null);
  for (const deadline = Date.now() + 120_000; !step.rotating; step = await reseal(base, operatorKey, null)) {
    if (Date.now() > deadline)
      throw new Error("The deployment does not see MCP_SECRETS_KEY_NEXT after two minutes; run this again.");
    await new Promise((r) => setTimeout(r, 3_000));
  }
  for (;;) {
    totals.resealed += step.resealed;
    totals.current += step.current;
    totals.unreadable.push(...step.unreadable);
    if (step.next_cursor === null) return totals;
    step = await reseal(base, operatorKey, step.next_cursor);
  }
}

try {
  const base = (process.env.WEFT_URL || readProductionConfig(configPath).vars.PUBLIC_URL || "").replace(/\/$/, "");
  const operatorKey = process.env.WEFT_OPERATOR_KEY;
  if (!base || !operatorKey) {
    throw new Error("Set WEFT_OPERATOR_KEY (the operator key) and WEFT_URL, or PUBLIC_URL in [env.production.vars].");
  }
  requireLogin();
  const names = secretNames(configPath) ?? [];
  if (!names.includes("MCP_SECRETS_KEY"))
    throw new Error("The production Worker has no MCP_SECRETS_KEY to rotate: run npm run deploy.");
  let key: string;
  if (names.includes("MCP_SECRETS_KEY_NEXT")) {
    if (!existsSync(keyFile)) {
      throw new Error(
        `A rotation was begun elsewhere (MCP_SECRETS_KEY_NEXT is set) and its key is not in ${keyFile}. Run this where it was begun, or put that key in the file.`,
      );
    }
    key = readFileSync(keyFile, "utf8").trim();
    console.log("Going on with the rotation begun before (MCP_SECRETS_KEY_NEXT is set).");
  } else {
    key = randomBytes(32).toString("base64");
    writeFileSync(keyFile, key, { mode: 0o600 });
    putSecret("MCP_SECRETS_KEY_NEXT", key);
    console.log("1. A new key is set as MCP_SECRETS_KEY_NEXT: the Worker seals with it and opens with either key.");
  }
  console.log(`2. Sealing every stored secret on every database with the new key (at ${base})...`);
  const first = await pass(base, operatorKey);
  console.log(`   resealed ${first.resealed}, already on the new key ${first.current}`);
  const settle = Number(values.settle);
  if (settle > 0) {
    console.log(`   waiting ${settle} s for isolates still on the old version, then once more...`);
    await new Promise((r) => setTimeout(r, settle * 1000));
  }
  const second = await pass(base, operatorKey);
  console.log(`   resealed ${second.resealed} more, ${second.current} on the new key`);
  for (const lost of second.unreadable) {
    console.log(`   unreadable with either key (set again by its workshop): ${lost.tenant_id} ${lost.server_id} ${lost.what}`);
  }
  putSecret("MCP_SECRETS_KEY", key);
  console.log("3. The new key is MCP_SECRETS_KEY.");
  wranglerOutput(["secret", "delete", "MCP_SECRETS_KEY_NEXT", "--env", "production", "-c", configPath]);
  rmSync(keyFile, { force: true });
  console.log("4. MCP_SECRETS_KEY_NEXT is deleted: the old key opens nothing any more. Done.");
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
