import type { Plan } from '../../core/billing/plan.js';
import type { Caller } from '../http/state.js';

/**
 * The configured plans. Users see and subscribe to the public ones; an admin also sees the plans
 * that are not public (custom or retired plans) and may subscribe to them. Renewals look up every
 * plan, public or not, so an account on a plan that stops being listed keeps it.
 */
export class PlanCatalog {
  private readonly byId: Map<string, Plan>;

  constructor(private readonly plans: readonly Plan[]) {
    this.byId = new Map(plans.map((p) => [p.id, p]));
  }

  /** The plans a caller may see, in the order of the configuration. */
  visibleTo(caller: Caller): Plan[] {
    const admin = caller.roles.includes('admin');
    return this.plans.filter((p) => p.public || admin);
  }

  /** A plan the caller may subscribe to, or null (unknown, or not public and the caller is no admin). */
  subscribable(id: string, caller: Caller): Plan | null {
    const plan = this.byId.get(id);
    return plan && (plan.public || caller.roles.includes('admin')) ? plan : null;
  }

  /** Any configured plan, or null when the configuration no longer has it. */
  find(id: string): Plan | null {
    return this.byId.get(id) ?? null;
  }
}
