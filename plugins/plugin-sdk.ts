/**
 * What a plugin author imports (`shotfarm/plugin-sdk` from an installed shotfarm): the contract, the
 * secret marker, the HTTP helper that honours the private-address guard, and the contract test kit.
 */
export * from './contract.js';
export { secret } from './secret-setting.js';
export { sendRequest, type SentResponse } from './http/send-request.js';
export {
  checkAppPlugin,
  expectRunError,
  memoryFiles,
  runContext,
  sampleFiles,
  sampleScreenshot,
  SAMPLE_HTML,
  SAMPLE_PNG,
  type ContractCheckOptions,
  type ContractCheckResult,
} from './contract-kit.js';
