import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CaptureSpec } from '../../core/capture-spec.js';
import type { PreparedEgress } from '../../core/contracts/browser-driver.js';
import { contextOptions } from './context-options.js';
import type { Engine } from './engine.js';

/** A capture's fresh context and its page when one was made ahead (null: the capture opens it). */
export interface CaptureContext {
  context: BrowserContext;
  page: Page | null;
  /** called once the context is closed: revokes the prepared egress credentials */
  release(): void;
}

interface Prepared {
  /** the creation-time options it was made with (preparationKey) */
  key: string;
  egress: PreparedEgress | null;
  made: Promise<{ context: BrowserContext; page: Page } | null>;
}

/**
 * What a context is made with, apart from its proxy credentials: contextOptions itself, so an option added
 * there is part of the key without being listed twice. The proxy is matched apart: a prepared context has
 * the egress guard's pending credentials (bound to the capture's own pass when taken), or none.
 */
export function preparationKey(spec: CaptureSpec, engine: Engine): string {
  return JSON.stringify(contextOptions({ ...spec, proxy: null }, engine));
}

/**
 * The next captures' contexts and pages, made while a browser has nothing else to do (issue 30: the
 * `newContext` + `newPage` a plain loop pays on every capture's critical path, ~100–170 ms at 1 at once).
 * Isolation is unchanged: a prepared context is taken by exactly one capture and closed with it like any
 * other; it is made for the options of the capture that just ended (the likeliest next ones) and taken only
 * by a capture whose context options are the same, else closed. Through the egress guard it carries pending
 * credentials that reach nothing until its capture's pass is bound to them. At most as many are kept as
 * this browser has run captures at once (its pool slots), none once closed.
 */
export class PreparedContexts {
  private ready: Prepared[] = [];
  private running = 0;
  private mostAtOnce = 0;
  private closed = false;

  constructor(
    private readonly browser: Browser,
    private readonly engine: Engine,
    /** the guard's pending credentials, or null when captures go without the guard */
    private readonly prepareEgress: (() => PreparedEgress) | null,
  ) {}

  /** A capture starts in this browser (ended() follows, whatever happens). */
  started(): void {
    this.running += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
  }

  /** The capture's context, prepared or fresh. */
  async open(spec: CaptureSpec): Promise<CaptureContext> {
    const prepared = await this.take(spec);
    if (prepared) return prepared;
    return { context: await this.browser.newContext(contextOptions(spec, this.engine)), page: null, release: () => undefined };
  }

  /** A capture ended (its context closed): one more is prepared for the same options, if a slot has none. */
  ended(spec: CaptureSpec): void {
    this.running -= 1;
    if (this.closed || !this.browser.isConnected() || this.ready.length >= this.mostAtOnce) return;
    let egress: PreparedEgress | null;
    try {
      egress = this.prepareEgress?.() ?? null;
    } catch {
      // The guard stopped (the agent is stopping): nothing is prepared.
      return;
    }
    const key = preparationKey(spec, this.engine);
    const made = this.make({ ...spec, proxy: egress?.proxy ?? null });
    this.ready.push({ key, egress, made });
  }

  /** Closes every prepared context (a browser recycled or closed, an agent drained). */
  async close(): Promise<void> {
    this.closed = true;
    await this.discardAll();
  }

  private async discardAll(): Promise<void> {
    const ready = this.ready;
    this.ready = [];
    await Promise.all(ready.map((prepared) => discard(prepared)));
  }

  private async make(spec: CaptureSpec): Promise<{ context: BrowserContext; page: Page } | null> {
    let context: BrowserContext | null = null;
    try {
      context = await this.browser.newContext(contextOptions(spec, this.engine));
      return { context, page: await context.newPage() };
    } catch {
      // A browser that went away: the capture makes its own context, and the pool sees the crash.
      await context?.close().catch(() => undefined);
      return null;
    }
  }

  private async take(spec: CaptureSpec): Promise<CaptureContext | null> {
    const key = preparationKey(spec, this.engine);
    const index = this.ready.findIndex((prepared) => prepared.key === key);
    if (index < 0) {
      // The captures changed options: what was prepared for the old ones is closed (not kept), off this
      // capture's path.
      void this.discardAll();
      return null;
    }
    const [prepared] = this.ready.splice(index, 1);
    if (!prepared) return null;
    const made = await prepared.made;
    const proxyMatches = prepared.egress ? spec.proxy != null && prepared.egress.bind(spec.proxy) : spec.proxy == null;
    if (!made || !proxyMatches) {
      await discard(prepared);
      return null;
    }
    return { context: made.context, page: made.page, release: () => prepared.egress?.close() };
  }
}

async function discard(prepared: Prepared): Promise<void> {
  const made = await prepared.made;
  await made?.context.close().catch(() => undefined);
  prepared.egress?.close();
}
