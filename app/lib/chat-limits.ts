/**
 * Chat limits as plain numbers, without zod, so the browser's chat code can read them (realtime-protocol.ts
 * re-exports them next to the frame schemas that enforce them).
 */

/** The longest chat message, in characters (after trimming). */
export const CHAT_TEXT_MAX = 2000;
