import { Form } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import type { MessageKey } from "~/i18n/en";
import { failureText, fieldText, type FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";
import { BookIcon, CheckIcon } from "../icons";
import { useOneSubmission } from "~/hooks/use-one-submission";
import { UnsavedChanges } from "../unsaved-changes";
import { ConfirmDialog } from "../confirm-dialog";
import { isolate } from "~/lib/bidi";
import type { GroupStatus } from "./badges";
import { ImageIcon } from "./extra-icons";
import { focusRefused } from "~/lib/focus";
import { RefusalText } from "~/components/form-field";

export interface GroupFormValues {
  title: string;
  description: string;
  imageCourse: string | null;
  start_date: string | null;
  instructorId: string | null;
  status: GroupStatus;
  capacity: number | null;
  /** Shown read-only when editing: the address never changes. */
  slug?: string;
  /** Approved and special members when editing: a group with members cannot go back to draft. */
  members?: number;
}

export interface GroupFormLimits {
  title: number;
  description: number;
  capacity: number;
  imageBytes: number;
}

export interface GroupFormProps {
  mode: "create" | "update";
  defaults: GroupFormValues;
  instructors: { _id: string; name: string; email: string }[];
  limits: GroupFormLimits;
  failure: FailureLike | null;
  /** True after a successful save (update mode), to say so. */
  saved?: boolean;
  /** The action's answer to the last successful save (new each time): nothing is unsaved after it until the next change. */
  savedAnswer?: unknown;
  busy: boolean;
}

const STATUS_HINT: Record<GroupStatus, MessageKey> = {
  draft: "groups.form.statusDraftHint",
  published: "groups.form.statusPublishedHint",
  archived: "groups.form.statusArchivedHint",
};

const FIELD_ORDER = ["title", "description", "file", "imageCourse", "start_date", "instructorId", "status", "capacity"];

/** Image URLs the server accepts: http(s) or a path under /images/ or /media/ (see the schema). */
const previewable = (url: string) => /^https?:\/\/\S+$/.test(url) || /^\/(media|images)\/[A-Za-z0-9._/-]+$/.test(url);

/**
 * A group's settings as one form (admin/newGroup and admin/group/{slug}/update): title, description, course
 * image (upload a file or paste a URL, with a preview), start date, instructor, status and capacity. It posts
 * multipart form data with `intent=save`; the route's action uploads the file first and uses its URL.
 */
export function GroupForm({ mode, defaults, instructors, limits, failure, saved, savedAnswer, busy }: GroupFormProps) {
  const { t } = useT();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const [imageUrl, setImageUrl] = useState(defaults.imageCourse ?? "");
  const [filePreview, setFilePreview] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [status, setStatus] = useState<GroupStatus>(defaults.status);
  const [titleLength, setTitleLength] = useState(defaults.title.length);
  const archiving = mode === "update" && status === "archived" && defaults.status !== "archived";
  // Its members would lose their course: the server refuses it too (groups-admin.ts, `has_members`).
  const keepsMembers = mode === "update" && defaults.status !== "draft" && (defaults.members ?? 0) > 0;
  const [confirmingArchive, setConfirmingArchive] = useState(false);
  const archiveConfirmed = useRef(false);

  useEffect(() => {
    if (!failure?.fields) return;
    const first = FIELD_ORDER.find((f) => failure.fields?.[f]);
    if (first) focusRefused(formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`));
  }, [failure]);

  const onFile = (e: React.ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    setFileError(null);
    if (!file) {
      setFilePreview(null);
      return;
    }
    if (file.size > limits.imageBytes) {
      setFileError(t("groups.error.imageTooLarge"));
      e.target.value = "";
      setFilePreview(null);
      return;
    }
    if (!["image/png", "image/jpeg", "image/webp"].includes(file.type)) {
      setFileError(t("groups.field.image"));
      e.target.value = "";
      setFilePreview(null);
      return;
    }
    // A data: URL (the page's CSP allows data: images, not blob:), read only for the preview.
    const reader = new FileReader();
    reader.onload = () => setFilePreview(typeof reader.result === "string" ? reader.result : null);
    reader.readAsDataURL(file);
  };

  const clearImage = () => {
    if (fileRef.current) fileRef.current.value = "";
    setFilePreview(null);
    setImageUrl("");
    setFileError(null);
  };

  const once = useOneSubmission(busy ? "submitting" : "idle");
  const err = (field: string) => fieldText(t, failure, field);
  const described = (field: string, hint?: string) => [err(field) ? `${id}-${field}-error` : "", hint ?? ""].filter(Boolean).join(" ") || undefined;
  const preview = filePreview ?? (previewable(imageUrl.trim()) ? imageUrl.trim() : null);
  // A preview the browser could not draw: a file named .png that is not a picture, or an address that is no image.
  const [brokenPreview, setBrokenPreview] = useState<string | null>(null);
  const previewBroken = preview !== null && brokenPreview === preview;
  const onPreviewError = () => {
    if (!preview) return;
    setBrokenPreview(preview);
    if (preview === filePreview) {
      // Not a picture: refused here as the server would refuse it, and the file taken back.
      setFileError(t("groups.form.imageUnreadable"));
      if (fileRef.current) fileRef.current.value = "";
      setFilePreview(null);
    }
  };
  const imageError = fileError ?? err("file") ?? err("imageCourse");

  return (
    <Form
      ref={formRef}
      method="post"
      encType="multipart/form-data"
      className="card form-card group-form"
      aria-busy={busy}
      onSubmit={(e) => {
        // A refused image is not silently left out: the form waits until another is chosen or the choice is removed.
        if (fileError) {
          e.preventDefault();
          focusRefused(fileRef.current);
          return;
        }
        // Archiving ends the cohort's place in the catalogue, and only an admin brings it back: asked first.
        if (archiving && !archiveConfirmed.current) {
          e.preventDefault();
          setConfirmingArchive(true);
          return;
        }
        archiveConfirmed.current = false;
        // A new group is made once, however many times Create is clicked before the page answers.
        once(e);
      }}
    >
      <UnsavedChanges form={formRef} saved={savedAnswer ?? null} />
      <input type="hidden" name="intent" value="save" />
      {failure && failure.code !== "validation_failed" && !failure.fields?.file ? (
        <RefusalText className="form-error" attempt={failure}>
          {failureText(t, failure)}
        </RefusalText>
      ) : null}
      {failure?.code === "validation_failed" ? (
        <RefusalText className="form-error" attempt={failure}>
          {t("groups.error.validation")}
        </RefusalText>
      ) : null}
      <div className="group-form-grid">
        <div className="form-fields">
          <div className="field">
            <label htmlFor={`${id}-title`}>{t("groups.form.title")}</label>
            <input
              id={`${id}-title`}
              name="title"
              required
              maxLength={limits.title}
              defaultValue={defaults.title}
              onChange={(e) => setTitleLength(e.target.value.length)}
              aria-invalid={err("title") ? true : undefined}
              aria-describedby={described("title", `${id}-title-count`)}
              dir="auto"
            />
            <div className="field-foot">
              {err("title") ? (
                <span id={`${id}-title-error`} className="field-error">
                  {err("title")}
                </span>
              ) : (
                <span />
              )}
              <span id={`${id}-title-count`} className="field-hint">
                {t("contact.count", { count: titleLength, max: limits.title })}
              </span>
            </div>
          </div>

          {mode === "update" && defaults.slug ? (
            <div className="field">
              <label htmlFor={`${id}-slug`}>{t("groups.form.slug")}</label>
              <input id={`${id}-slug`} value={`/content/${defaults.slug}`} readOnly aria-describedby={`${id}-slug-hint`} dir="ltr" className="input-readonly" />
              <span id={`${id}-slug-hint`} className="field-hint field-hint-wrap">
                {t("groups.form.slugHint")}
              </span>
            </div>
          ) : null}

          <div className="field">
            <label htmlFor={`${id}-description`}>{t("groups.form.description")}</label>
            <textarea
              id={`${id}-description`}
              name="description"
              rows={6}
              maxLength={limits.description}
              defaultValue={defaults.description}
              aria-invalid={err("description") ? true : undefined}
              aria-describedby={described("description")}
              dir="auto"
            />
            {err("description") ? (
              <span id={`${id}-description-error`} className="field-error">
                {err("description")}
              </span>
            ) : null}
          </div>

          <div className="group-form-row">
            <div className="field">
              <label htmlFor={`${id}-start`}>{t("groups.form.startDate")}</label>
              <input
                id={`${id}-start`}
                type="date"
                name="start_date"
                defaultValue={defaults.start_date ?? ""}
                aria-invalid={err("start_date") ? true : undefined}
                aria-describedby={described("start_date", `${id}-start-hint`)}
              />
              <span id={`${id}-start-hint`} className="field-hint field-hint-wrap">
                {t("groups.form.startDateHint")}
              </span>
              {err("start_date") ? (
                <span id={`${id}-start_date-error`} className="field-error">
                  {err("start_date")}
                </span>
              ) : null}
            </div>
            <div className="field">
              <label htmlFor={`${id}-capacity`}>{t("groups.form.capacity")}</label>
              <input
                id={`${id}-capacity`}
                type="number"
                name="capacity"
                inputMode="numeric"
                min={1}
                max={limits.capacity}
                step={1}
                defaultValue={defaults.capacity ?? ""}
                aria-invalid={err("capacity") ? true : undefined}
                aria-describedby={described("capacity", `${id}-capacity-hint`)}
              />
              <span id={`${id}-capacity-hint`} className="field-hint field-hint-wrap">
                {t("groups.form.capacityHint")}
              </span>
              {err("capacity") ? (
                <span id={`${id}-capacity-error`} className="field-error">
                  {err("capacity")}
                </span>
              ) : null}
            </div>
          </div>

          <div className="group-form-row">
            <div className="field">
              <label htmlFor={`${id}-instructor`}>{t("groups.form.instructor")}</label>
              <select
                id={`${id}-instructor`}
                name="instructorId"
                defaultValue={defaults.instructorId ?? ""}
                aria-invalid={err("instructorId") ? true : undefined}
                aria-describedby={described("instructorId")}
              >
                <option value="">{t("groups.form.noInstructor")}</option>
                {instructors.map((i) => (
                  <option key={i._id} value={i._id} dir="auto">
                    {i.name}
                  </option>
                ))}
              </select>
              {err("instructorId") ? (
                <span id={`${id}-instructorId-error`} className="field-error">
                  {err("instructorId")}
                </span>
              ) : null}
            </div>
            <div className="field">
              <label htmlFor={`${id}-status`}>{t("groups.form.status")}</label>
              <select
                id={`${id}-status`}
                name="status"
                value={status}
                onChange={(e) => setStatus(e.target.value as GroupStatus)}
                aria-describedby={`${id}-status-hint`}
              >
                <option value="draft" disabled={keepsMembers}>
                  {t("group.status.draft")}
                </option>
                <option value="published">{t("group.status.published")}</option>
                <option value="archived">{t("group.status.archived")}</option>
              </select>
              <span id={`${id}-status-hint`} className="field-hint field-hint-wrap">
                {t(STATUS_HINT[status])}
                {keepsMembers ? ` ${t("groups.form.statusMembersHint", { count: defaults.members ?? 0 })}` : null}
              </span>
            </div>
          </div>
        </div>

        <fieldset className="form-fields image-fields">
          <legend>{t("groups.form.image")}</legend>
          <div className="image-preview" data-empty={!preview || previewBroken}>
            {preview && !previewBroken ? (
              <img src={preview} alt={t("groups.form.imagePreview")} onError={onPreviewError} />
            ) : (
              <span className="image-preview-empty">
                <ImageIcon />
                {t(preview ? "groups.form.imageUrlBroken" : "groups.form.noImage")}
              </span>
            )}
          </div>
          <div className="field">
            <label htmlFor={`${id}-file`}>{t("groups.form.upload")}</label>
            <input
              ref={fileRef}
              id={`${id}-file`}
              type="file"
              name="file"
              accept="image/png,image/jpeg,image/webp"
              onChange={onFile}
              aria-invalid={imageError ? true : undefined}
              aria-describedby={`${id}-file-hint${imageError ? ` ${id}-image-error` : ""}`}
            />
            <span id={`${id}-file-hint`} className="field-hint field-hint-wrap">
              {t("groups.form.uploadHint")}
            </span>
          </div>
          <div className="field">
            <label htmlFor={`${id}-url`}>{t("groups.form.imageUrl")}</label>
            <input
              id={`${id}-url`}
              name="imageCourse"
              type="text"
              inputMode="url"
              dir="ltr"
              maxLength={500}
              placeholder="https://"
              value={imageUrl}
              onChange={(e) => setImageUrl(e.target.value)}
              aria-invalid={err("imageCourse") ? true : undefined}
              aria-describedby={`${id}-url-hint${imageError ? ` ${id}-image-error` : ""}`}
            />
            <span id={`${id}-url-hint`} className="field-hint field-hint-wrap">
              {t("groups.form.imageUrlHint")}{" "}
              <bdi dir="ltr" className="hint-code">
                /images/courses/frontend-react.svg
              </bdi>
            </span>
          </div>
          {imageError ? (
            <span id={`${id}-image-error`} className="field-error" role="alert">
              {imageError}
            </span>
          ) : null}
          {preview || fileError ? (
            <button type="button" className="btn btn-ghost btn-sm image-clear" onClick={clearImage}>
              {t("groups.form.removeImage")}
            </button>
          ) : null}
        </fieldset>
      </div>

      <div className="group-form-actions">
        {/* Beside the button that saved (on a phone the form's top is a screen or two away). */}
        {saved ? (
          <p className="notice-success" role="status">
            <CheckIcon />
            {t("groups.form.saved")}
          </p>
        ) : null}
        <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
          {busy ? <span className="spinner spinner-sm" aria-hidden="true" /> : mode === "create" ? <BookIcon /> : <CheckIcon />}
          {busy ? t("groups.form.saving") : mode === "create" ? t("groups.form.create") : t("groups.form.save")}
        </button>
      </div>
      {archiving ? (
        <ConfirmDialog
          danger
          open={confirmingArchive}
          title={t("groups.form.archiveTitle", { title: isolate(defaults.title) })}
          confirmLabel={t("groups.form.archiveConfirm")}
          onConfirm={() => {
            archiveConfirmed.current = true;
            setConfirmingArchive(false);
            formRef.current?.requestSubmit();
          }}
          onClose={() => setConfirmingArchive(false)}
        >
          <p>{t("groups.form.archiveBody")}</p>
        </ConfirmDialog>
      ) : null}
    </Form>
  );
}
