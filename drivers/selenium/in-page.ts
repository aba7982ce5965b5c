import type { WebDriver } from 'selenium-webdriver';

/**
 * Runs a self-contained function (drivers/page-scripts/, drivers/shared/) in the page through
 * executeScript: its source is sent and called with the arguments, as JSON. A returned promise is
 * awaited by the WebDriver (W3C Execute Script).
 */
export function inPage<A extends unknown[], R>(driver: WebDriver, fn: (...args: A) => R, ...args: A): Promise<Awaited<R>> {
  return driver.executeScript<Awaited<R>>(`return (${fn.toString()}).apply(null, arguments);`, ...args);
}
