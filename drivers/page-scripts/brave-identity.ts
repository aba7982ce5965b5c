/**
 * Brave's page-visible identity: `navigator.brave.isBrave()` resolves true, which is how sites
 * (and Brave's own detection advice) tell Brave from Chrome. Installed as an init script so it exists
 * before any page script runs. Self-contained.
 */
export function installBraveIdentity(): void {
  const brave = Object.freeze({ isBrave: (): Promise<boolean> => Promise.resolve(true) });
  Object.defineProperty(Navigator.prototype, 'brave', { get: () => brave, configurable: true, enumerable: true });
}
