/**
 * Course images, stored in R2 (`env.IMAGES`; a local bucket under .wrangler/state in development) and served by
 * the Worker at /media/* (worker/http/media.ts). The type is decided by the file's first bytes, never by the
 * name or the declared type alone, so a renamed HTML or SVG file cannot be served as an image.
 */
import { can } from "../../app/lib/permissions";
import { COURSE_IMAGE } from "../../app/lib/schemas";
import type { ServiceContext } from "../context";
import { AppError, forbidden } from "../http/errors";
import { newId } from "./ids";
import type { Viewer } from "./sessions";

export type ImageType = (typeof COURSE_IMAGE.types)[number];

const EXTENSIONS: Record<ImageType, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

/** Where uploaded course images live in the bucket; /media/<key> serves them. */
export const COURSE_IMAGE_PREFIX = "courses/";

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) => signature.every((b, i) => bytes[offset + i] === b);

/** The image type a file's first bytes say it is (PNG, JPEG or WebP), or null. */
export function sniffImageType(head: Uint8Array): ImageType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  // "RIFF" <size> "WEBP"
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}

const invalid = (message: string) => new AppError(400, "invalid_image", message, { file: message });

/**
 * POST /api/uploads/course-image (admins and instructors): checks size, declared type and magic bytes, stores
 * the image under a random key, and answers the URL to put in a group's `imageCourse`.
 */
export async function uploadCourseImage(ctx: ServiceContext, viewer: Viewer, file: File): Promise<{ url: string }> {
  // The people who edit group settings: admins, and instructors for their own groups.
  if (!can(viewer, "staff.inbox")) throw forbidden("Only instructors and admins can upload course images.");
  if (file.size > COURSE_IMAGE.maxBytes) {
    throw new AppError(413, "payload_too_large", `Images are limited to ${COURSE_IMAGE.maxBytes / 1024 / 1024} MB.`);
  }
  if (file.size === 0) throw invalid("The file is empty.");
  const declared = file.type.toLowerCase();
  if (!(COURSE_IMAGE.types as readonly string[]).includes(declared)) throw invalid("Upload a PNG, JPEG or WebP image.");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const actual = sniffImageType(bytes.subarray(0, 16));
  // A JPEG named .png is still a fine image: it is stored and served as what its bytes are.
  if (!actual) throw invalid("The file is not a valid PNG, JPEG or WebP image.");

  const key = `${COURSE_IMAGE_PREFIX}${newId()}.${EXTENSIONS[actual]}`;
  await ctx.env.IMAGES.put(key, bytes, { httpMetadata: { contentType: actual } });
  return { url: `/media/${key}` };
}
