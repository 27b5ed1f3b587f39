/**
 * Server side of the group settings form (components/groups/group-form.tsx): form fields → the shared schema's
 * input, and the optional uploaded image → its /media URL through the upload service.
 */
import type { CreateGroupInput, UpdateGroupInput } from "./schemas";
import { COURSE_IMAGE, GROUP_LIMITS } from "./schemas";
import type { ServiceContext } from "../../worker/context";
import { uploadCourseImage } from "../../worker/services/uploads";
import type { Viewer } from "../../worker/services/sessions";
import { formNumber, text } from "./group-actions.server";

/** What the form's fields say, in the schema's shape; empty optional fields are `null` (cleared). */
export function groupFormFields(form: FormData) {
  const capacity = text(form, "capacity");
  return {
    title: text(form, "title"),
    description: text(form, "description"),
    imageCourse: text(form, "imageCourse") || null,
    start_date: text(form, "start_date") || null,
    instructorId: text(form, "instructorId") || null,
    status: text(form, "status") || undefined,
    capacity: capacity === "" ? null : formNumber(capacity),
  };
}

/** The limits the form shows (from the shared schema, so the browser bundle needs no zod). */
export const GROUP_FORM_LIMITS = {
  title: GROUP_LIMITS.title,
  description: GROUP_LIMITS.description,
  capacity: GROUP_LIMITS.capacity,
  imageBytes: COURSE_IMAGE.maxBytes,
};

/**
 * When a file was chosen, uploads it (the service checks size, type and bytes), puts its URL in the input in place of
 * any pasted URL, and runs `save` with it. A save the service refuses (a student named as instructor, a capacity
 * below the members, a group gone) takes the image out again: nothing is left that no group points to. Call after
 * the other fields passed their schema, so a form with a mistake uploads nothing.
 */
export async function savedWithImage<T extends CreateGroupInput | UpdateGroupInput, R>(svc: ServiceContext, viewer: Viewer, form: FormData, input: T, save: (input: T) => Promise<R>): Promise<R> {
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return save(input);
  const { url } = await uploadCourseImage(svc, viewer, file);
  try {
    return await save({ ...input, imageCourse: url });
  } catch (err) {
    await svc.env.IMAGES.delete(url.replace(/^\/media\//, ""));
    throw err;
  }
}
