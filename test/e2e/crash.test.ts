// Issue 46's crash under load, small and bounded: `npm run dev` killed once (SIGKILL) while
// clients confirm, leave writes pending, chat and upload; after it starts again on the same state,
// nothing acknowledged is lost, written twice or half-written, every action tells the truth and
// confirms once, and no chat holds a turn twice. `npm run bench crash` runs the larger one.
import { describe, expect, it } from "vitest";
import { crashUnderLoad } from "../../scripts/bench/crash.ts";

describe("npm run dev killed under load", () => {
  it("loses, doubles and half-writes nothing, and tells each action's truth after the restart", {
    timeout: 600_000,
  }, async () => {
    const report = await crashUnderLoad({ kills: 1, clients: 6, seconds: 6, log: () => {} });
    expect(report.confirms.acknowledged).toBeGreaterThan(0);
    expect(report.confirms).toMatchObject({ lost: 0, doubled: 0, halfWritten: 0 });
    expect(report.confirms.oneRowOneAudit).toBe(report.confirms.acknowledged);
    expect(report.caught.toldWrongly).toBe(0);
    expect(report.caught.confirmedOnce).toBe(report.caught.count);
    expect(report.pending.stillPending).toBe(report.pending.left);
    expect(report.pending.confirmedOnceAfter).toBe(report.pending.left);
    expect(report.reconfirmed.addedRows).toBe(0);
    expect(report.chats.doubled).toBe(0);
    expect(report.chats.oneTurn).toBe(report.chats.completed);
    expect(report.chats.cutOneTurnAfterResend).toBe(report.chats.cut);
    expect(report.uploads.whole).toBe(report.uploads.acknowledged);
  });
});
