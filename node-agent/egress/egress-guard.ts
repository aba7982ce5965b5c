import type net from 'node:net';
import type { PreparedEgress } from '../../core/contracts/browser-driver.js';
import type { Logger } from '../../core/logger.js';
import { PrivateAllowlist } from '../../core/net/private-allowlist.js';
import { resolveDestination } from '../../core/net/resolve-destination.js';
import { openConnection } from './upstream.js';
import { JobSessions, type BlockedRequest } from './job-sessions.js';
import { startProxyServer } from './proxy-server.js';
import type { UnreachableRequest } from './unreachable-cause.js';
import { systemLookup, type HostLookup } from '../../core/net/resolve-destination.js';

export interface EgressGuardOptions {
  /** SHOTFARM_PRIVATE_TARGET_ALLOWLIST */
  allowlist: readonly string[];
  /** the resolver; tests map their own names onto the loopback test site */
  lookup?: HostLookup;
  /**
   * How a capture's traffic is told apart. `credentials` (the default): one port, each pass its own proxy
   * credentials, which Playwright sets per browser context. `port`: each pass a listener of its own whose
   * every request is the pass's, for the Selenium driver: its capture is a browser of its own (a grid
   * session), and WebDriver's proxy setting carries no credentials.
   */
  passes?: 'credentials' | 'port';
}

/** One capture's pass through the guard: the proxy URL its browser context uses, and what was blocked. */
export interface EgressPass {
  /** http://<record id>:<random password>@127.0.0.1:<port>, or http://127.0.0.1:<port of the pass> */
  proxy: string;
  blocked(): readonly BlockedRequest[];
  /** allowed requests it could not deliver */
  unreachable(): readonly UnreachableRequest[];
  close(): void;
}

/**
 * SSRF protection (issue 8): a forward proxy inside the agent that every capture's browser context goes
 * through while SHOTFARM_ALLOW_PRIVATE_TARGETS is false. It refuses any connection to a loopback, private,
 * link-local, metadata, multicast or otherwise internal address, whatever the URL, redirect or
 * subresource that led there, and keeps per capture what it refused.
 */
export class EgressGuard {
  private readonly sessions = new JobSessions();
  private server: { port: number; close(): Promise<void> } | null = null;
  private readonly allowlist: PrivateAllowlist;

  constructor(
    private readonly options: EgressGuardOptions,
    private readonly log: Logger,
  ) {
    this.allowlist = new PrivateAllowlist(options.allowlist);
  }

  async start(): Promise<void> {
    if (this.server) return;
    this.server = await startProxyServer({
      identify: (authorization) => this.sessions.fromAuthorization(authorization),
      lookup: this.options.lookup ?? systemLookup,
      allowlist: this.allowlist,
      log: this.log,
    });
  }

  /**
   * The guard's address without credentials: every browser's own proxy (drivers/playwright/launch-browser.ts).
   * A request through it that no open pass claims gets 407 and goes nowhere.
   */
  browserProxy(): string {
    if (!this.server) throw new Error('the egress guard is not started');
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** Opens a capture's pass; `upstream` is the country proxy its allowed traffic continues through. */
  async open(jobId: number, upstream: string | null): Promise<EgressPass> {
    if (!this.server) throw new Error('the egress guard is not started');
    const session = this.sessions.open(jobId, upstream);
    if (this.options.passes === 'port') {
      // Loopback only, like the shared port: the pass's browser runs on this machine (create-agent.ts).
      // Once the pass is closed its port answers nothing, and a browser with a fixed proxy never goes direct.
      const own = await startProxyServer({
        identify: () => (this.sessions.isOpen(session) ? session : null),
        lookup: this.options.lookup ?? systemLookup,
        allowlist: this.allowlist,
        log: this.log,
      });
      return {
        proxy: `http://127.0.0.1:${own.port}`,
        blocked: () => session.blocked,
        unreachable: () => session.unreachable,
        close: () => {
          this.sessions.close(session);
          void own.close();
        },
      };
    }
    return {
      proxy: `http://${session.username}:${session.password}@127.0.0.1:${this.server.port}`,
      blocked: () => session.blocked,
      unreachable: () => session.unreachable,
      close: () => this.sessions.close(session),
    };
  }

  /**
   * What makes pending credentials for contexts made before their captures (core/contracts/browser-driver.ts
   * PreparedEgress), or null with per-pass ports (Selenium), whose passes carry no credentials.
   */
  preparer(): (() => PreparedEgress) | null {
    return this.options.passes === 'port' ? null : () => this.prepare();
  }

  private prepare(): PreparedEgress {
    if (!this.server) throw new Error('the egress guard is not started');
    const credentials = this.sessions.openPrepared();
    return {
      proxy: `http://${credentials.username}:${credentials.password}@127.0.0.1:${this.server.port}`,
      bind: (captureProxy) => {
        const session = this.sessions.fromProxyUrl(captureProxy);
        return session !== null && this.sessions.bind(credentials, session);
      },
      close: () => this.sessions.closePrepared(credentials),
    };
  }

  /**
   * The agent's own connection to `host:port` by the rules its captures' traffic follows (the same
   * resolver, the same refusal of private addresses, the same country proxy), or null when the guard
   * would refuse it. For reading a refused certificate (tls-certificate.ts), never for a page.
   */
  async connect(host: string, port: number, upstream: string | null): Promise<net.Socket | null> {
    const destination = await resolveDestination(host, this.options.lookup ?? systemLookup, this.allowlist);
    return destination.allowed ? openConnection(destination.address, port, upstream) : null;
  }

  async stop(): Promise<void> {
    await this.server?.close();
    this.server = null;
  }
}
