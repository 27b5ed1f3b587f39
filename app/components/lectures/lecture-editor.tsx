import { Link, useFetcher, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { PlusIcon, TrashIcon } from "~/components/icons";
import { ToastRegion, useToasts } from "~/components/toast";
import type { FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";
import { useFieldError } from "./lectures-screen";
import { fromLocalInput, toLocalInput } from "./when";
import { isolate } from "~/lib/bidi";
import { UnsavedChanges } from "~/components/unsaved-changes";

export interface EditableLecture {
  _id: string;
  slug: string;
  title: string;
  body: string;
  bodyHtml: string;
  startsAt: string | null;
  published: boolean;
  videoUrl: string | null;
  resources: { title: string; url: string }[];
}

type Result = ({ ok: true; intent: string; html?: string } | (FailureLike & { ok: false; intent: string })) & { target?: string };

/**
 * One lecture's editor: title, start, video, resources and the Markdown text with a preview rendered by the server
 * (the same renderer students see), publish, save and delete. `listPath` is where the group's lectures are.
 */
export function LectureEditor({ lecture, listPath, attendancePath }: { lecture: EditableLecture; listPath: string; attendancePath: string }) {
  const { t } = useT();
  const save = useFetcher<Result>();
  const preview = useFetcher<Result>();
  const remove = useFetcher<Result>();
  const navigate = useNavigate();
  const { toasts, show, dismiss } = useToasts();
  const [title, setTitle] = useState(lecture.title);
  const [startsAt, setStartsAt] = useState(() => toLocalInput(lecture.startsAt));
  const [videoUrl, setVideoUrl] = useState(lecture.videoUrl ?? "");
  const [resources, setResources] = useState(lecture.resources);
  // A resource added or removed: the focus goes to the new row's title, or to the row now in the removed one's place
  // (the one before it when it was the last; Add resource when none is left).
  const focusResource = useRef<number | null>(null);
  const addResourceRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const at = focusResource.current;
    if (at === null) return;
    focusResource.current = null;
    const row = Math.min(at, resources.length - 1);
    const input = row >= 0 ? document.querySelector<HTMLInputElement>(`[data-resource-title="${row}"]`) : null;
    (input ?? addResourceRef.current)?.focus();
  }, [resources.length]);
  const [body, setBody] = useState(lecture.body);
  const [published, setPublished] = useState(lecture.published);
  const [tab, setTab] = useState<"write" | "preview">("write");
  const [deleting, setDeleting] = useState(false);
  const handled = useRef<unknown>(null);
  const error = useFieldError(save.data, "save");

  // The datetime-local value is in the browser's zone: set it once the page runs there.
  useEffect(() => setStartsAt(toLocalInput(lecture.startsAt)), [lecture.startsAt]);

  useEffect(() => {
    const result = save.data;
    if (!result || handled.current === result || save.state !== "idle") return;
    handled.current = result;
    if (result.ok) show("success", t("lectures.saved"));
    else show("error", result.code === "validation_failed" ? t("lectures.error.check") : result.message);
  }, [save.data, save.state, show, t]);

  useEffect(() => {
    if (remove.data?.ok) navigate(listPath);
  }, [remove.data, navigate, listPath]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const value = { title, startsAt: fromLocalInput(startsAt), videoUrl: videoUrl.trim() || null, resources: resources.filter((r) => r.title.trim() || r.url.trim()), body, published };
    save.submit({ intent: "save", lecture: JSON.stringify(value) }, { method: "post" });
  };
  const showPreview = () => {
    setTab("preview");
    preview.submit({ intent: "preview", body }, { method: "post" });
  };
  const html = preview.data?.ok ? preview.data.html : undefined;
  const busy = save.state !== "idle";
  const formRef = useRef<HTMLFormElement>(null);

  return (
    <div className="lecture-editor">
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
      <UnsavedChanges form={formRef} saved={save.data?.ok ? save.data : remove.data?.ok ? remove.data : null} />
      <form ref={formRef} className="card form-card" onSubmit={submit} aria-labelledby="editor-title">
        <div className="section-head">
          <h2 id="editor-title" className="block-title">
            {t("lectures.editTitle")}
          </h2>
          <Link to={attendancePath} className="btn btn-outline btn-sm">
            {t("lectures.attendance")}
          </Link>
        </div>
        <div className="field">
          <label htmlFor="lecture-title">{t("lectures.field.title")}</label>
          <input id="lecture-title" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={160} dir="auto" aria-invalid={!!error("title") || undefined} />
          {error("title") ? <p className="field-error">{error("title")}</p> : null}
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor="lecture-start">{t("lectures.field.startsAt")}</label>
            <input id="lecture-start" type="datetime-local" value={startsAt} onChange={(e) => setStartsAt(e.target.value)} aria-describedby="lecture-start-hint" />
            <p id="lecture-start-hint" className="field-hint">
              {t("lectures.field.startsAtHint")}
            </p>
          </div>
          <div className="field">
            <label htmlFor="lecture-video">{t("lectures.field.video")}</label>
            <input id="lecture-video" type="url" inputMode="url" dir="ltr" placeholder="https://" value={videoUrl} onChange={(e) => setVideoUrl(e.target.value)} aria-invalid={!!error("videoUrl") || undefined} />
            {error("videoUrl") ? <p className="field-error">{t("lectures.error.url")}</p> : null}
          </div>
        </div>

        <fieldset className="field resources-field">
          <legend>{t("lectures.field.resources")}</legend>
          {resources.length === 0 ? <p className="muted">{t("lectures.field.noResources")}</p> : null}
          <ul className="resource-rows" role="list">
            {resources.map((r, i) => (
              <li key={i} className="resource-row">
                <input
                  data-resource-title={i}
                  aria-label={t("lectures.field.resourceTitle", { n: i + 1 })}
                  placeholder={t("lectures.field.resourceTitlePlaceholder")}
                  value={r.title}
                  dir="auto"
                  onChange={(e) => setResources((list) => list.map((x, j) => (j === i ? { ...x, title: e.target.value } : x)))}
                />
                <input
                  aria-label={t("lectures.field.resourceUrl", { n: i + 1 })}
                  placeholder="https://"
                  type="url"
                  dir="ltr"
                  value={r.url}
                  onChange={(e) => setResources((list) => list.map((x, j) => (j === i ? { ...x, url: e.target.value } : x)))}
                />
                <button type="button" className="btn btn-ghost btn-icon btn-sm" onClick={() => {
                    focusResource.current = i;
                    setResources((list) => list.filter((_, j) => j !== i));
                  }}
                  aria-label={t("lectures.field.removeResource", { n: i + 1 })}
                >
                  <TrashIcon />
                </button>
              </li>
            ))}
          </ul>
          {error("resources") ? <p className="field-error">{t("lectures.error.resources")}</p> : null}
          <button
            ref={addResourceRef}
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={resources.length >= 20}
            onClick={() => {
              focusResource.current = resources.length;
              setResources((list) => [...list, { title: "", url: "" }]);
            }}
          >
            <PlusIcon />
            {t("lectures.field.addResource")}
          </button>
        </fieldset>

        <div className="field markdown-field">
          {/* Tabs as the pattern has them: one Tab stop, the arrow keys (in the page's direction), Home and End. */}
          <div
            className="markdown-tabs"
            role="tablist"
            aria-label={t("lectures.field.body")}
            onKeyDown={(e) => {
              const rtl = getComputedStyle(e.currentTarget).direction === "rtl";
              const forward = e.key === (rtl ? "ArrowLeft" : "ArrowRight") || e.key === "End";
              const back = e.key === (rtl ? "ArrowRight" : "ArrowLeft") || e.key === "Home";
              if (!forward && !back) return;
              e.preventDefault();
              if (forward) showPreview();
              else setTab("write");
              document.getElementById(forward ? "tab-preview" : "tab-write")?.focus();
            }}
          >
            <button type="button" role="tab" aria-selected={tab === "write"} tabIndex={tab === "write" ? 0 : -1} aria-controls="lecture-body-panel" id="tab-write" className="markdown-tab" onClick={() => setTab("write")}>
              {t("lectures.write")}
            </button>
            <button type="button" role="tab" aria-selected={tab === "preview"} tabIndex={tab === "preview" ? 0 : -1} aria-controls="lecture-body-panel" id="tab-preview" className="markdown-tab" onClick={showPreview}>
              {t("lectures.preview")}
            </button>
          </div>
          <div id="lecture-body-panel" role="tabpanel" aria-labelledby={tab === "write" ? "tab-write" : "tab-preview"}>
            {tab === "write" ? (
              <>
                <label htmlFor="lecture-body" className="visually-hidden">
                  {t("lectures.field.body")}
                </label>
                <textarea id="lecture-body" className="markdown-input" rows={16} value={body} onChange={(e) => setBody(e.target.value)} dir="auto" aria-describedby="lecture-body-hint" />
                <p id="lecture-body-hint" className="field-hint">
                  {t("lectures.field.bodyHint")}
                </p>
              </>
            ) : preview.state !== "idle" || html === undefined ? (
              <p className="muted" role="status">
                {t("common.loading")}
              </p>
            ) : (
              <div className="prose lecture-body" dir="auto" dangerouslySetInnerHTML={{ __html: html }} />
            )}
          </div>
        </div>

        <label className="check-field">
          <input type="checkbox" checked={published} onChange={(e) => setPublished(e.target.checked)} />
          <span>{t("lectures.field.published")}</span>
        </label>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? t("lectures.saving") : t("lectures.save")}
          </button>
          <Link to={listPath} className="btn btn-ghost">
            {t("lectures.back")}
          </Link>
          <button type="button" className="btn btn-ghost btn-destructive-ghost" onClick={() => setDeleting(true)}>
            <TrashIcon />
            {t("lectures.deleteShort")}
          </button>
        </div>
      </form>
      <ConfirmDialog
        danger
        open={deleting}
        title={t("lectures.deleteTitle", { title: isolate(lecture.title) })}
        confirmLabel={t("lectures.deleteConfirm")}
        busyLabel={t("lectures.deleting")}
        busy={remove.state !== "idle"}
        onConfirm={() => remove.submit({ intent: "delete" }, { method: "post" })}
        onClose={() => setDeleting(false)}
      >
        <p>{t("lectures.deleteBody")}</p>
      </ConfirmDialog>
    </div>
  );
}
