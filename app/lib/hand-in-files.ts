/**
 * File hand-ins (issue 21): the kinds of file a task may accept and how a file's kind is decided, by its first bytes
 * and never by its name or declared type, so a renamed page cannot pass for a PDF. Text is any UTF-8 without NUL
 * bytes (code, Markdown, plain text) and is only ever served as text/plain. Client-safe (the task form shows the kinds).
 */
export const FILE_KINDS = ["pdf", "image", "text", "zip"] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** The types a hand-in is stored and served as, by kind. */
export const KIND_OF_TYPE: Record<string, FileKind> = {
  "application/pdf": "pdf",
  "image/png": "image",
  "image/jpeg": "image",
  "image/webp": "image",
  "text/plain; charset=utf-8": "text",
  "application/zip": "zip",
};

/** The refusal of an empty file (or none), from the API and the task page alike: the page shows its own words for it. */
export const EMPTY_FILE_MESSAGE = "The file is empty.";

/** A task's largest file, in megabytes. */
export const MAX_FILE_MB = { min: 1, max: 20, default: 10 } as const;

const starts = (bytes: Uint8Array, signature: readonly number[], offset = 0) => signature.every((b, i) => bytes[offset + i] === b);

/** The type a file's bytes say it is, among the kinds hand-ins accept, or null. */
export function sniffHandIn(bytes: Uint8Array): string | null {
  if (starts(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf"; // %PDF-
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts(bytes, [0x52, 0x49, 0x46, 0x46]) && starts(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  if (starts(bytes, [0x50, 0x4b, 0x03, 0x04])) return "application/zip";
  if (bytes.length > 0 && !bytes.includes(0)) {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      return "text/plain; charset=utf-8";
    } catch {
      return null;
    }
  }
  return null;
}

/** Whether a file of `type` may be shown in the page (an image, a PDF in a sandboxed frame, text in a <pre>). */
export const previewable = (type: string | null) => type !== null && KIND_OF_TYPE[type] !== "zip";
