import type { OutgoingMail } from '../../core/contracts/mailer.js';

/** "48 hours", "15 minutes", "1 second": how long a link works, in the words of the message. */
export function lifetimeText(seconds: number): string {
  const unit = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds >= 3600 && seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  if (seconds >= 60 && seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

/**
 * The dashboard pages the links open; they POST the token to /api/v1/auth/verify-email or
 * /api/v1/auth/reset-password. The token is also given on its own line for API clients.
 */
const link = (publicUrl: string, page: string, token: string): string => `${publicUrl}/${page}?token=${encodeURIComponent(token)}`;

/** The dashboard page that sets a password with a reset token (also the first login of a user made by the CLI). */
export const passwordResetLink = (publicUrl: string, token: string): string => link(publicUrl, 'reset-password', token);

export function verificationEmail(publicUrl: string, user: { id: number; email: string }, token: string, ttlSeconds: number): OutgoingMail {
  return {
    to: user.email,
    userId: user.id,
    purpose: 'verify_email',
    subject: 'Confirm your email address',
    text: ['Welcome to shotfarm.', '', `Confirm your email address by opening this link within ${lifetimeText(ttlSeconds)}:`, link(publicUrl, 'verify-email', token), '', `Token: ${token}`].join('\n'),
  };
}

export function passwordResetEmail(publicUrl: string, user: { id: number; email: string }, token: string, ttlSeconds: number): OutgoingMail {
  return {
    to: user.email,
    userId: user.id,
    purpose: 'reset_password',
    subject: 'Reset your password',
    text: [
      'Someone asked to reset the password of your shotfarm account.',
      '',
      `Choose a new password by opening this link within ${lifetimeText(ttlSeconds)}; it works once:`,
      passwordResetLink(publicUrl, token),
      '',
      `Token: ${token}`,
      '',
      'If it was not you, ignore this message: your password stays as it is.',
    ].join('\n'),
  };
}
