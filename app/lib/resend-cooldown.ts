/** The one-time codes' rules the pages show (verification and password reset): the resend wait, and the tries a code takes. Client-safe. */

/**
 * Seconds a "Send a new code" button waits after sending one (e-mail verification and password reset alike): long
 * enough for the first e-mail to arrive before a second replaces its code. The server has its own hourly limits too. Client-safe.
 */
export const RESEND_COOLDOWN_S = 30;

/**
 * Wrong tries one code takes before it stops working (the server's rule, worker/services/codes.ts): after them only a
 * new code works, which the page then says, counting the refusals it saw itself (the server never says whether an
 * address has a code). Client-safe.
 */
export const CODE_MAX_ATTEMPTS = 5;
