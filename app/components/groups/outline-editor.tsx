import { useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { failureText, fieldText, type FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";
import { ArrowUpIcon, BookIcon, PlusIcon, TrashIcon } from "../icons";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { ArrowDownIcon, PencilIcon } from "./extra-icons";
import { focusRefused } from "~/lib/focus";
import { RefusalText } from "~/components/form-field";

export interface OutlineItem {
  _id: string;
  title: string;
  body: string;
}

type Result = ({ ok: true } | FailureLike) & { intent: string; target?: string };

/**
 * A group's public course outline, edited in place: add a part, edit its title and Markdown text, move it up
 * or down (buttons, so it works with a keyboard and a screen reader; focus stays on the moved part), and
 * remove it after a confirmation. Each change posts to the page's action (`intent=content-*`); the list shows a
 * move at once and the server's order after it.
 */
export function OutlineEditor({ items, limits }: { items: OutlineItem[]; limits: { title: number; body: number } }) {
  const { t } = useT();
  const mover = useFetcher<Result>({ key: "outline-move" });
  const remover = useFetcher<Result>({ key: "outline-remove" });
  const [editing, setEditing] = useState<string | null>(null);
  const lastEdited = useRef<string | null>(null);
  const [removing, setRemoving] = useState<OutlineItem | null>(null);
  const [announce, setAnnounce] = useState("");
  const focusAfterMove = useRef<{ id: string; dir: "up" | "down" } | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // While a move is on its way, show the list as it will be.
  let shown = items;
  if (mover.state !== "idle" && mover.formData) {
    const id = String(mover.formData.get("id"));
    const dir = mover.formData.get("direction") === "up" ? -1 : 1;
    const from = items.findIndex((i) => i._id === id);
    const to = from + dir;
    if (from >= 0 && to >= 0 && to < items.length) {
      shown = [...items];
      [shown[from], shown[to]] = [shown[to]!, shown[from]!];
    }
  }
  const removingId = remover.state !== "idle" ? String(remover.formData?.get("id") ?? "") : null;
  shown = shown.filter((i) => i._id !== removingId);

  useEffect(() => {
    const want = focusAfterMove.current;
    if (!want) return;
    const index = shown.findIndex((i) => i._id === want.id);
    if (index < 0) return;
    const list = listRef.current;
    const same = list?.querySelector<HTMLButtonElement>(`[data-id="${want.id}"][data-move="${want.dir}"]`);
    const other = list?.querySelector<HTMLButtonElement>(`[data-id="${want.id}"][data-move="${want.dir === "up" ? "down" : "up"}"]`);
    (same && !same.disabled ? same : other)?.focus();
  });

  useEffect(() => {
    // Back from editing a part: focus returns to its edit button.
    if (editing !== null || !lastEdited.current) return;
    listRef.current?.querySelector<HTMLButtonElement>(`[data-edit="${lastEdited.current}"]`)?.focus();
    lastEdited.current = null;
  }, [editing]);

  const moveResult = mover.data;
  useEffect(() => {
    if (mover.state === "idle" && moveResult) {
      focusAfterMove.current = null;
      if (!moveResult.ok) setAnnounce(failureText(t, moveResult));
    }
  }, [mover.state, moveResult, t]);

  const move = (item: OutlineItem, dir: "up" | "down", index: number) => {
    focusAfterMove.current = { id: item._id, dir };
    const position = dir === "up" ? index : index + 2;
    setAnnounce(t("groups.outline.moved", { title: item.title, position, total: items.length }));
    mover.submit({ intent: "content-move", id: item._id, direction: dir }, { method: "post" });
  };

  const removeResult = remover.data;
  const closeRemove = useCallback(() => setRemoving(null), []);
  useEffect(() => {
    if (remover.state !== "idle" || !removeResult) return;
    if (removeResult.ok && removing) {
      setAnnounce(t("groups.outline.removed", { title: removing.title }));
      setRemoving(null);
    }
  }, [remover.state, removeResult, removing, t]);

  return (
    <section className="card form-card outline-editor" aria-labelledby="outline" id="outline-section">
      <div>
        <h2 id="outline" ref={headingRef} tabIndex={-1} className="block-title">
          {t("course.outline")}
        </h2>
        <p className="muted">{t("groups.outline.lead")}</p>
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      {shown.length === 0 ? (
        <div className="empty-inline outline-empty">
          <BookIcon />
          {t("groups.outline.empty")}
        </div>
      ) : (
        <ol ref={listRef} role="list" className="outline-edit-list">
          {shown.map((item, index) =>
            editing === item._id ? (
              <li key={item._id} className="outline-edit-item is-editing">
                <span className="outline-number" aria-hidden="true">
                  {String(index + 1).padStart(2, "0")}
                </span>
                <ContentForm
                  intent="content-edit"
                  item={item}
                  limits={limits}
                  onDone={() => {
                    lastEdited.current = item._id;
                    setEditing(null);
                  }}
                  label={t("groups.outline.editTitle", { title: item.title })}
                />
              </li>
            ) : (
              <li key={item._id} className="outline-edit-item">
                <span className="outline-number" aria-hidden="true">
                  {String(index + 1).padStart(2, "0")}
                </span>
                <div className="outline-edit-text">
                  <span className="outline-title user-text">
                    <span className="visually-hidden">{t("course.part", { n: index + 1, total: shown.length })}: </span>
                    {item.title}
                  </span>
                  {item.body ? <span className="outline-edit-excerpt user-text">{item.body.slice(0, 140)}</span> : null}
                </div>
                <div className="outline-edit-actions">
                  <button
                    type="button"
                    className="btn btn-ghost btn-icon btn-sm"
                    data-id={item._id}
                    data-move="up"
                    disabled={index === 0 || mover.state !== "idle"}
                    onClick={() => move(item, "up", index)}
                    aria-label={t("groups.outline.moveUp", { title: item.title })}
                    title={t("groups.outline.moveUpShort")}
                  >
                    <ArrowUpIcon />
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-icon btn-sm"
                    data-id={item._id}
                    data-move="down"
                    disabled={index === shown.length - 1 || mover.state !== "idle"}
                    onClick={() => move(item, "down", index)}
                    aria-label={t("groups.outline.moveDown", { title: item.title })}
                    title={t("groups.outline.moveDownShort")}
                  >
                    <ArrowDownIcon />
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-icon btn-sm"
                    data-edit={item._id}
                    onClick={() => setEditing(item._id)}
                    aria-label={t("groups.outline.edit", { title: item.title })}
                    title={t("groups.outline.editShort")}
                  >
                    <PencilIcon />
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-icon btn-sm btn-destructive-ghost"
                    onClick={() => setRemoving(item)}
                    aria-label={t("groups.outline.remove", { title: item.title })}
                    title={t("groups.outline.removeShort")}
                  >
                    <TrashIcon />
                  </button>
                </div>
              </li>
            ),
          )}
        </ol>
      )}

      <ContentForm intent="content-add" limits={limits} label={t("groups.outline.addTitle")} />

      <ConfirmDialog
        danger
        open={removing !== null}
        title={t("groups.outline.removeTitle", { title: removing?.title ?? "" })}
        confirmLabel={t("groups.outline.removeConfirm")}
        busyLabel={t("groups.outline.removing")}
        busy={remover.state !== "idle"}
        error={removeResult && !removeResult.ok && remover.state === "idle" ? failureText(t, removeResult) : null}
        onConfirm={() => removing && remover.submit({ intent: "content-delete", id: removing._id }, { method: "post" })}
        onClose={closeRemove}
        returnFocusTo={headingRef}
      >
        <p>{t("groups.outline.removeBody")}</p>
      </ConfirmDialog>
    </section>
  );
}

/** Adds a part (empty form that clears after saving) or edits one (its values, closes after saving). */
function ContentForm({
  intent,
  item,
  limits,
  label,
  onDone,
}: {
  intent: "content-add" | "content-edit";
  item?: OutlineItem;
  limits: { title: number; body: number };
  label: string;
  onDone?: () => void;
}) {
  const { t } = useT();
  const fetcher = useFetcher<Result>();
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const handled = useRef<unknown>(null);
  const busy = fetcher.state !== "idle";
  const failure = fetcher.data && !fetcher.data.ok ? fetcher.data : null;

  useEffect(() => {
    if (item) titleRef.current?.focus();
  }, [item]);

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || handled.current === result) return;
    handled.current = result;
    if (!result.ok) {
      focusRefused(titleRef.current);
      return;
    }
    if (intent === "content-add") {
      formRef.current?.reset();
      titleRef.current?.focus();
    }
    onDone?.();
  }, [fetcher.state, fetcher.data, intent, onDone]);

  const titleError = fieldText(t, failure, "title", "groups.field.contentTitle");
  const bodyError = fieldText(t, failure, "body");
  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      className={intent === "content-add" ? "content-form content-form-add" : "content-form"}
      aria-label={label}
      onKeyDown={(e) => {
        if (e.key === "Escape" && onDone) {
          e.stopPropagation();
          onDone();
        }
      }}
    >
      {intent === "content-add" ? <h3 className="content-form-title">{label}</h3> : null}
      <input type="hidden" name="intent" value={intent} />
      {item ? <input type="hidden" name="id" value={item._id} /> : null}
      <div className="field">
        <label htmlFor={`${id}-title`}>{t("groups.outline.partTitle")}</label>
        <input
          ref={titleRef}
          id={`${id}-title`}
          name="title"
          required
          maxLength={limits.title}
          defaultValue={item?.title ?? ""}
          aria-invalid={titleError ? true : undefined}
          aria-describedby={titleError ? `${id}-title-error` : undefined}
          dir="auto"
        />
        {titleError ? (
          <span id={`${id}-title-error`} className="field-error">
            {titleError}
          </span>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={`${id}-body`}>{t("groups.outline.partBody")}</label>
        <textarea
          id={`${id}-body`}
          name="body"
          rows={intent === "content-add" ? 4 : 6}
          maxLength={limits.body}
          defaultValue={item?.body ?? ""}
          aria-describedby={`${id}-body-hint${bodyError ? ` ${id}-body-error` : ""}`}
          aria-invalid={bodyError ? true : undefined}
          dir="auto"
        />
        <span id={`${id}-body-hint`} className="field-hint field-hint-wrap">
          {t("groups.outline.markdownHint")}
        </span>
        {bodyError ? (
          <span id={`${id}-body-error`} className="field-error">
            {bodyError}
          </span>
        ) : null}
      </div>
      {failure && !titleError && !bodyError ? (
        <RefusalText className="form-error" attempt={failure}>
          {failureText(t, failure)}
        </RefusalText>
      ) : null}
      <div className="content-form-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy} aria-busy={busy}>
          {busy ? <span className="spinner spinner-sm" aria-hidden="true" /> : intent === "content-add" ? <PlusIcon /> : null}
          {busy ? t("groups.form.saving") : intent === "content-add" ? t("groups.outline.add") : t("groups.form.save")}
        </button>
        {onDone ? (
          <button type="button" className="btn btn-ghost btn-sm" onClick={onDone} disabled={busy}>
            {t("groups.cancel")}
          </button>
        ) : null}
      </div>
    </fetcher.Form>
  );
}
