/**
 * Seconds a "Send a new code" button waits after sending one (e-mail verification and password reset alike): long
 * enough for the first e-mail to arrive before a second replaces its code. The server has its own hourly limits too. Client-safe.
 */
export const RESEND_COOLDOWN_S = 30;
