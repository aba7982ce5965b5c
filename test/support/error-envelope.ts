import { expect } from 'chai';

/** A JSON POST body, as the billing tests send it. */
export const jsonPost = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** Asserts the spec's error envelope (status, code, a message, the request id) and returns the body. */
export function expectError(res: { status: number; body: any }, status: number, code: string): any {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.include({ success: false, code });
  expect(res.body.error).to.be.a('string').and.not.equal('');
  expect(res.body.details.request_id).to.be.a('string').and.not.equal('');
  return res.body;
}
