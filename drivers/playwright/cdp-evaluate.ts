import type { CDPSession } from 'playwright-core';

interface EvaluateAnswer {
  result: { type: string; value?: unknown; unserializableValue?: string; description?: string };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

/** The numbers JSON cannot carry, as CDP names them. */
const UNSERIALIZABLE: Record<string, number> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, '-Infinity': Number.NEGATIVE_INFINITY, '-0': -0 };

/**
 * Runs a self-contained page function (drivers/page-scripts/) in the page's main world with at most one
 * argument, as one CDP Runtime.evaluate on the page's session, its promise awaited and its answer returned
 * by value. Playwright's page.evaluate makes two round trips the first time in each document (it injects
 * its utility script, ~20 KB to compile, before calling the function), and every capture's first look after
 * `load` is such a first time. Page functions return plain data (JSON), which is what returnByValue carries.
 * The errors read as Playwright's do where the pipeline tells them apart (page-responds.ts: a replaced
 * document, a closed browser).
 */
export async function cdpEvaluate<A extends [] | [unknown], R>(session: CDPSession, fn: (...args: A) => R, ...args: A): Promise<Awaited<R>> {
  // JSON is a JavaScript expression; `undefined` (no argument) is not JSON and stays out.
  const argument = args.length === 0 || args[0] === undefined ? '' : JSON.stringify(args[0]);
  const answer = (await session.send('Runtime.evaluate', { expression: `(${fn.toString()})(${argument})`, awaitPromise: true, returnByValue: true }).catch((error: unknown) => {
    // The page's document went away under the call (a navigation) or has none yet.
    if (/Cannot find default execution context|Execution context was destroyed|Inspected target navigated/i.test(String(error))) {
      throw new Error('Execution context was destroyed, most likely because of a navigation');
    }
    throw error;
  })) as EvaluateAnswer;
  if (answer.exceptionDetails) {
    const details = answer.exceptionDetails;
    throw new Error(details.exception?.description ?? details.text);
  }
  const { result } = answer;
  if (result.unserializableValue !== undefined) return UNSERIALIZABLE[result.unserializableValue] as Awaited<R>;
  return result.value as Awaited<R>;
}
