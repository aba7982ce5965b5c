import WebSocket from 'ws';

type Listener = (params: Record<string, unknown>) => void;
interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}
interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { message?: string };
  sessionId?: string;
}

/**
 * The Chrome DevTools Protocol through the grid: the session's `se:cdp` capability is a WebSocket the
 * grid relays to the browser (a browser-level connection). It attaches to the session's page with a
 * flat session id, so page commands and events share the one socket. The connection stays open for
 * the whole capture: Chromium drops a CDP session's emulation overrides when it detaches.
 * (selenium-webdriver's createCDPConnection does the same attach, but resolves CDP errors as results
 * and cannot deliver events or close, which a capture needs.)
 */
export class CdpSession {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private pageSessionId = '';
  /** the page target, which is also the id of its main frame */
  targetId = '';

  private constructor(
    private readonly socket: WebSocket,
    private readonly commandTimeoutMs: number,
  ) {
    socket.on('message', (data: WebSocket.RawData) => this.receive(data.toString()));
    socket.on('close', () => this.failAll(new Error('the CDP connection closed')));
    socket.on('error', () => undefined); // 'close' follows and fails what is pending
  }

  /** Connects and attaches to the session's page. */
  static async connect(url: string, commandTimeoutMs: number): Promise<CdpSession> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the CDP connection did not open in time')), commandTimeoutMs);
      socket.once('open', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    const session = new CdpSession(socket, commandTimeoutMs);
    try {
      const { targetInfos } = await session.sendToBrowser<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
      const page = targetInfos.find((target) => target.type === 'page');
      if (!page) throw new Error('the browser has no page target');
      const { sessionId } = await session.sendToBrowser<{ sessionId: string }>('Target.attachToTarget', { targetId: page.targetId, flatten: true });
      session.pageSessionId = sessionId;
      session.targetId = page.targetId;
    } catch (error) {
      session.close();
      throw error;
    }
    return session;
  }

  /** A command to the page. */
  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    return this.call<T>(method, params, this.pageSessionId);
  }

  /** A command to the browser itself (Browser.*, Target.*). */
  sendToBrowser<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    return this.call<T>(method, params, undefined);
  }

  /** Calls `listener` for each event `method` of the page; returns the unsubscribe function. */
  on(method: string, listener: Listener): () => void {
    let set = this.listeners.get(method);
    if (!set) {
      set = new Set();
      this.listeners.set(method, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  close(): void {
    this.listeners.clear();
    this.socket.terminate();
  }

  private call<T>(method: string, params: Record<string, unknown>, sessionId: string | undefined): Promise<T> {
    if (this.socket.readyState !== WebSocket.OPEN) return Promise.reject(new Error(`${method}: the CDP connection is closed`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} got no answer within ${this.commandTimeoutMs} ms`));
      }, this.commandTimeoutMs);
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject, timer });
      this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  private receive(text: string): void {
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return;
    }
    if (message.id !== undefined) {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error) pending.reject(new Error(message.error.message ?? 'CDP error'));
      else pending.resolve(message.result ?? {});
      return;
    }
    if (message.method && message.sessionId === this.pageSessionId) {
      for (const listener of this.listeners.get(message.method) ?? []) listener(message.params ?? {});
    }
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.pending.clear();
  }
}
