// npm run workshop:create -- --name NAME --boss PERSON --username USERNAME [--role admin] [--shard SHARD_1] [--remote]
// Creates a workshop through the operator's API, as a sign-up does (placed on a shard, with its
// starting knowledge bases and guide), and prints its first person's one-time set-password link to
// send them: how a deployment whose sign-up is closed gets its first workshop. Locally it talks to
// `npm run dev` (http://localhost:$PORT, the demo operator key); with --remote to the deployment at
// WEFT_URL with the operator key in WEFT_OPERATOR_KEY (`npm run deploy` prints both).
import { parseArgs } from "node:util";
import { requireNode22 } from "./lib.ts";

export interface CreatedWorkshop {
  workshop: { id: string; name: string; shard: string };
  person: { name: string; username: string; role: string };
  set_password_url: string;
  expires_at: string;
}

/** Asks the deployment at `base` to create the workshop; throws with its answer when it refuses. */
export async function createWorkshopThrough({
  base,
  operatorKey,
  workshop,
}: {
  base: string;
  operatorKey: string;
  workshop: { workshop_name: string; name: string; username: string; role?: string | undefined; shard?: string | undefined };
}): Promise<CreatedWorkshop> {
  const res = await fetch(`${base}/api/admin/workshops`, {
    method: "POST",
    headers: { Authorization: `Bearer ${operatorKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(workshop),
  });
  const answer = (await res.json()) as CreatedWorkshop & { error?: { message: string } };
  if (!res.ok) throw new Error(`The workshop was not created (${res.status}): ${answer.error?.message ?? "no reason given"}`);
  return answer;
}

/** What to tell the operator about a created workshop. */
export function describeCreated(created: CreatedWorkshop): string {
  return [
    `Workshop ${created.workshop.name} (${created.workshop.id}) created on ${created.workshop.shard}.`,
    `Its ${created.person.role} ${created.person.name} (username ${created.person.username}) sets a password with this link,`,
    `once, until ${created.expires_at} (shown once: send it now, by WeChat or SMS):`,
    `  ${created.set_password_url}`,
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  requireNode22();
  const { values } = parseArgs({
    options: {
      name: { type: "string" },
      boss: { type: "string" },
      username: { type: "string" },
      role: { type: "string" },
      shard: { type: "string" },
      remote: { type: "boolean", default: false },
    },
  });
  if (!values.name || !values.boss || !values.username) {
    console.error(
      "Usage: npm run workshop:create -- --name WORKSHOP --boss PERSON --username USERNAME [--role admin] [--shard SHARD_1] [--remote]",
    );
    process.exit(2);
  }
  const base = values.remote ? process.env.WEFT_URL : `http://localhost:${process.env.PORT ?? "8787"}`;
  const operatorKey = values.remote ? process.env.WEFT_OPERATOR_KEY : (process.env.WEFT_OPERATOR_KEY ?? "dev-operator-key");
  if (!base || !operatorKey) {
    console.error("With --remote, set WEFT_URL (the deployment's address) and WEFT_OPERATOR_KEY (printed by npm run deploy).");
    process.exit(2);
  }
  try {
    const created = await createWorkshopThrough({
      base,
      operatorKey,
      workshop: {
        workshop_name: values.name,
        name: values.boss,
        username: values.username,
        role: values.role,
        shard: values.shard,
      },
    });
    console.log(describeCreated(created));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
