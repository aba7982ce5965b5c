import type { NodeRegistry, NodeStatus } from '../../core/contracts/node-registry.js';

export interface MemoryNodeRegistryOptions {
  /** a node that has not heartbeaten for this long is gone */
  ttlMs: number;
  /** the clock, in ms; tests may pass their own */
  now?: () => number;
}

/** The node registry of embedded mode: the one agent lives in the same process as the api. */
export class MemoryNodeRegistry implements NodeRegistry {
  private readonly nodes = new Map<string, { status: NodeStatus; expiresAt: number }>();
  private readonly drains = new Set<string>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: MemoryNodeRegistryOptions) {
    if (!(options.ttlMs > 0)) throw new Error(`ttlMs must be positive, got ${options.ttlMs}`);
    this.ttlMs = options.ttlMs;
    this.now = options.now ?? Date.now;
  }

  async heartbeat(node: NodeStatus): Promise<void> {
    // A copy: the registry reports what was sent, not what the agent's object has become since.
    this.nodes.set(node.id, { status: structuredClone(node), expiresAt: this.now() + this.ttlMs });
  }

  async list(): Promise<NodeStatus[]> {
    const now = this.now();
    const live: NodeStatus[] = [];
    for (const [id, entry] of this.nodes) {
      if (entry.expiresAt <= now) this.nodes.delete(id);
      else live.push({ ...structuredClone(entry.status), draining: entry.status.draining || this.drains.has(id) });
    }
    return live.sort((a, b) => a.id.localeCompare(b.id));
  }

  async remove(id: string): Promise<void> {
    this.nodes.delete(id);
    this.drains.delete(id);
  }

  async requestDrain(id: string, drain: boolean): Promise<boolean> {
    if (!(await this.list()).some((n) => n.id === id)) return false;
    if (drain) this.drains.add(id);
    else this.drains.delete(id);
    return true;
  }

  async drainRequested(id: string): Promise<boolean> {
    return this.drains.has(id);
  }

  async close(): Promise<void> {
    this.nodes.clear();
    this.drains.clear();
  }
}
