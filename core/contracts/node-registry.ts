import type { BrowserName } from '../capture-spec.js';

/** What an agent says about itself on every heartbeat. */
export interface NodeStatus {
  id: string;
  host: string;
  browsers: { name: BrowserName; version: string; driver: 'playwright' | 'selenium' }[];
  /** countries this node egresses from (country routing); empty = any */
  countries: string[];
  slots: number;
  inFlight: number;
  jobsDone: number;
  failures: number;
  startedAt: string;
  draining: boolean;
}

/** The live nodes of the farm. A node that stops heartbeating disappears after the TTL. */
export interface NodeRegistry {
  heartbeat(node: NodeStatus): Promise<void>;
  list(): Promise<NodeStatus[]>;
  /** Removes a node at once (it is leaving). */
  remove(id: string): Promise<void>;
  close(): Promise<void>;
}
