import { env } from "cloudflare:workers";
import { keys } from "./fixtures.ts";
import { callJson } from "./helpers.ts";

/**
 * Loads knowledge/ as `npm run dev` does: each folder of knowledge/docs a document base and each
 * file of knowledge/faq an FAQ base, through the REST API as the demo workshop's boss.
 */
export async function loadDemoKnowledge(): Promise<void> {
  const boss = { key: keys.boss };
  for (const kb of new Set(env.TEST_KNOWLEDGE_DOCS.map((doc) => doc.kb))) {
    const created = await callJson("/api/knowledge-bases", { ...boss, method: "POST", body: JSON.stringify({ name: kb }) });
    const documents = env.TEST_KNOWLEDGE_DOCS.filter((doc) => doc.kb === kb).map(({ filename, content }) => ({
      filename,
      content,
    }));
    const uploaded = await callJson(`/api/knowledge-bases/${created.body.id}/documents`, {
      ...boss,
      method: "POST",
      body: JSON.stringify({ documents }),
    });
    if (uploaded.status !== 200) throw new Error(`uploading ${kb}: ${uploaded.status} ${uploaded.text}`);
  }
  for (const { name, description = "", entries } of env.TEST_KNOWLEDGE_FAQS) {
    const body = JSON.stringify({ name, description, type: "faq" });
    const created = await callJson("/api/knowledge-bases", { ...boss, method: "POST", body });
    const imported = await callJson(`/api/knowledge-bases/${created.body.id}/faq/import`, {
      ...boss,
      method: "POST",
      body: JSON.stringify({ entries }),
    });
    if (imported.status !== 200) throw new Error(`importing ${name}: ${imported.status} ${imported.text}`);
  }
}
