// npm run knowledge:push: uploads knowledge/trees to a deployed Weft.
//   WEFT_URL=https://weft.example.workers.dev WEFT_ADMIN_KEY=wft_... npm run knowledge:push
import { checkTrees, printReports } from "./knowledge-check.ts";
import { uploadTrees } from "./load-knowledge.ts";

const baseUrl = process.env.WEFT_URL?.replace(/\/$/, "");
const adminKey = process.env.WEFT_ADMIN_KEY;
if (!baseUrl || !adminKey) {
  console.error("Set WEFT_URL (the deployed Worker's URL) and WEFT_ADMIN_KEY (an admin's API key).");
  process.exit(2);
}
printReports(await checkTrees());
const { loaded, failed } = await uploadTrees({ baseUrl, adminKey });
console.log(`Uploaded: ${loaded.join(", ") || "none"}`);
for (const failure of failed) console.error(`Refused: ${failure}`);
if (failed.length > 0) process.exit(1);
