import { DurableObject } from "cloudflare:workers";

/** At most `limit` failures within a fixed window of `windowSeconds`. */
export interface LimitRule {
  limit: number;
  windowSeconds: number;
}

/** Whether the subject is now over its limit, and for how long the current window still runs. */
export interface LimitVerdict {
  blocked: boolean;
  retryAfterSeconds: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * Counts failed authentications of one subject (a client address or a key prefix), one object
 * per subject. Only failures reach it, so a request with a good key never waits on it. The
 * object runs one call at a time, so concurrent failures are all counted; an alarm frees its
 * storage once the window is over.
 */
export class AuthLimiter extends DurableObject<Env> {
  /** Counts one failure; blocked once more than `rule.limit` failures fall in the current window. */
  async recordFailure(rule: LimitRule): Promise<LimitVerdict> {
    const now = Date.now();
    const windowMs = rule.windowSeconds * 1000;
    let window = await this.ctx.storage.get<Window>("window");
    if (!window || now >= window.start + windowMs) {
      window = { start: now, count: 0 };
      await this.ctx.storage.setAlarm(now + windowMs);
    }
    window.count += 1;
    await this.ctx.storage.put("window", window);
    const retryAfterSeconds = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    return { blocked: window.count > rule.limit, retryAfterSeconds };
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}
