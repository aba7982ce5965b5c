import { expect } from 'chai';
import type { CaptureOutput } from '../../core/capture-spec.js';
import { captureVerdict } from '../../node-agent/outcome.js';

const unreached = (warnings: string[]): CaptureOutput => ({ responseCode: null, images: [Buffer.from('png')], warnings }) as unknown as CaptureOutput;

describe('captureVerdict: what a capture without an answer says', () => {
  it('says "The page could not be reached" once, also when the driver\'s warning already says it', () => {
    const verdict = captureVerdict(unreached(['The page could not be reached: net::ERR_CONNECTION_REFUSED at https://shop.example/']));
    expect(verdict).to.deep.equal({ status: 'error', error: 'The page could not be reached: net::ERR_CONNECTION_REFUSED at https://shop.example/', cause: 'unreachable' });
  });

  it('adds it in front of a bare cause', () => {
    expect(captureVerdict(unreached(['navigation timed out']))).to.deep.equal({ status: 'error', error: 'The page could not be reached: navigation timed out', cause: 'unreachable' });
  });

  it("the guard's or the browser's named failure wins, with its cause", () => {
    const failure = { cause: 'refused' as const, error: 'shop.example:443 refused the connection.' };
    expect(captureVerdict(unreached(['The page could not be reached: net::ERR_TUNNEL_CONNECTION_FAILED']), failure)).to.deep.equal({ status: 'error', ...failure });
  });

  it('a page that answered but gave no image is an error of its own cause', () => {
    expect(captureVerdict({ responseCode: 200, images: [], warnings: ['the screenshot failed'] } as unknown as CaptureOutput)).to.deep.equal({
      status: 'error',
      error: 'No image could be captured: the screenshot failed',
      cause: 'no_image',
    });
  });

  it('a condition the page failed ends as condition_failed with its sentence, also when no image was taken', () => {
    const sentence = 'fail_on_status: the page answered with status 404 (4xx).';
    expect(captureVerdict({ responseCode: 404, images: [], warnings: [], conditionFailed: sentence } as unknown as CaptureOutput)).to.deep.equal({
      status: 'error',
      error: sentence,
      cause: 'condition_failed',
    });
  });

  it('a page that answered, even 404, is a finished capture', () => {
    expect(captureVerdict({ responseCode: 404, images: [Buffer.from('png')], warnings: [] } as unknown as CaptureOutput)).to.deep.equal({ status: 'finished' });
  });
});
