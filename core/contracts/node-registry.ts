import type { BrowserName } from '../capture-spec.js';
import type { DriverKind } from './browser-driver.js';

/** What an agent says about itself on every heartbeat. */
export interface NodeStatus {
  id: string;
  host: string;
  browsers: { name: BrowserName; version: string; driver: DriverKind }[];
  /** countries this node egresses from (country routing); empty = any */
  countries: string[];
  slots: number;
  inFlight: number;
  jobsDone: number;
  failures: number;
  startedAt: string;
  /** the agent stops taking jobs (SIGTERM or a drain request), finishes those in flight, then leaves */
  draining: boolean;
  /**
   * resident memory of the node's process tree (the agent, its browsers and their helpers), bytes, at the
   * heartbeat; null where it cannot be read (no /proc). Absent from agents older than this field.
   */
  rssBytes?: number | null;
}

/**
 * The live nodes of the farm. A node that stops heartbeating disappears after the TTL. An operator's
 * drain request waits here until the node reads it (on its heartbeat): the node leaves once drained.
 */
export interface NodeRegistry {
  heartbeat(node: NodeStatus): Promise<void>;
  /** The live nodes; one asked to drain shows `draining` at once, before its own next heartbeat. */
  list(): Promise<NodeStatus[]>;
  /**
   * The live nodes as this process holds them, for a reader that asks on every request (admission): where the
   * registry lives elsewhere (NATS) it is kept current by watching it, so it may be a few milliseconds behind other
   * processes' writes, and costs no request. Absent where list() is as cheap already (memory).
   */
  listHeld?(): Promise<NodeStatus[]>;
  /** Removes a node at once (it is leaving), and any drain request for it. */
  remove(id: string): Promise<void>;
  /**
   * Asks a live node to drain (true) or withdraws the request (false). Returns false, changing nothing,
   * when no live node has this id. The request lasts until withdrawn or the node leaves (remove).
   */
  requestDrain(id: string, drain: boolean): Promise<boolean>;
  /** Whether this node was asked to drain and the request was not withdrawn. */
  drainRequested(id: string): Promise<boolean>;
  close(): Promise<void>;
}
