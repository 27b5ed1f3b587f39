import { Link, useFetcher } from "@remix-run/react";
import { useMemo, useState } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { useConfirmedDeletion } from "./use-confirmed-deletion";
import { initials } from "~/components/groups/format";
import { TimeAgo } from "~/components/groups/time-ago";
import { QuoteIcon, StarIcon } from "~/components/icons";
import { EyeIcon, EyeOffIcon, TrashIcon } from "~/components/realtime-icons";
import { useT } from "~/lib/i18n";
import { usePropState } from "~/lib/use-prop-state";
import type { FeedbackFrameBody, ServerFrame } from "~/lib/realtime-protocol";
import { LiveIndicator } from "./live-indicator";
import { useFreshIds } from "./use-fresh-ids";
import { useStaffInbox } from "./use-staff-inbox";
import { EmptyState } from "~/components/empty-state";
import { isolate } from "~/lib/bidi";
import { RefusalText } from "~/components/form-field";

type Feedback = FeedbackFrameBody;

const byNewest = (a: Feedback, b: Feedback) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id);

/** Applies one live frame to the list of every record. */
function applyFrame(list: Feedback[], frame: ServerFrame): Feedback[] {
  if (frame.type === "feedback.created" || frame.type === "feedback.updated") return [frame.feedback, ...list.filter((x) => x._id !== frame.feedback._id)];
  if (frame.type === "feedback.deleted") return list.filter((x) => x._id !== frame._id);
  return list;
}

/**
 * Feedback moderation (PRODUCT.md §3 "Admin feedback"): every record with its author's e-mail, group, stars and
 * text; hide/show and delete. The staff-inbox room (admins only) adds new records at the top and applies every
 * admin's changes; each (re)connection reads the list afresh.
 */
export function FeedbackInbox({ feedback }: { feedback: Feedback[] }) {
  const { t } = useT();
  const [items, setItems] = usePropState(feedback);
  const [announce, setAnnounce] = useState("");
  const { fresh, markFresh } = useFreshIds();
  const deleter = useFetcher<{ ok: boolean; id: string }>();

  const status = useStaffInbox<Feedback[]>({
    snapshotPath: "/api/feedback/all",
    onFrame: (frame) => {
      setItems((list) => applyFrame(list, frame));
      if (frame.type === "feedback.created") {
        markFresh(frame.feedback._id);
        setAnnounce(t("feedbackAdmin.arrived", { name: frame.feedback.name }));
      }
    },
    onSnapshot: (snapshot, since) => setItems(since.reduce(applyFrame, snapshot)),
  });

  const deletingId = deleter.state !== "idle" ? String(deleter.formData?.get("id") ?? "") : null;
  const shown = useMemo(() => items.filter((f) => f._id !== deletingId).sort(byNewest), [items, deletingId]);
  const hidden = shown.filter((f) => f.hidden).length;

  // A deletion done: said, and the keyboard goes on from the one that took its place.
  const { confirming, ask, close, listRef, summaryRef, returnFocusTo } = useConfirmedDeletion<Feedback>(deleter, (item) => setAnnounce(t("feedbackAdmin.deleted", { name: item.name })));

  return (
    <div className="inbox-screen">
      <div className="inbox-bar">
        <p ref={summaryRef} tabIndex={-1} className="list-summary">
          {t("feedbackAdmin.count", { count: shown.length, hidden })}
        </p>
        <LiveIndicator status={status} />
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      {shown.length === 0 ? (
        <EmptyState icon={<QuoteIcon />} title={t("feedbackAdmin.empty.title")} body={t("feedbackAdmin.empty.body")} />
      ) : (
        <ol ref={listRef} className="inbox-list feedback-admin-list" role="list">
          {shown.map((f, i) => (
            <FeedbackRow
              key={f._id}
              item={f}
              fresh={fresh.has(f._id)}
              onDelete={() => ask(f, i)}
            />
          ))}
        </ol>
      )}
      <ConfirmDialog
        danger
        open={confirming !== null}
        title={t("feedbackAdmin.deleteTitle")}
        confirmLabel={t("feedbackAdmin.delete")}
        busyLabel={t("feedbackAdmin.deleting")}
        busy={deleter.state !== "idle"}
        error={deleter.state === "idle" && deleter.data && !deleter.data.ok ? t("feedbackAdmin.failed") : null}
        onConfirm={() => confirming && deleter.submit({ intent: "delete", id: confirming._id }, { method: "post" })}
        onClose={close}
        returnFocusTo={returnFocusTo}
      >
        <p>{t("feedbackAdmin.deleteBody", { name: isolate(confirming?.name ?? "") })}</p>
      </ConfirmDialog>
    </div>
  );
}

function FeedbackRow({ item: f, fresh, onDelete }: { item: Feedback; fresh: boolean; onDelete: () => void }) {
  const { t } = useT();
  const moderator = useFetcher<{ ok: boolean }>();
  // The click shows at once; the server's answer (and the live frame) confirm it.
  const hidden = moderator.state !== "idle" ? moderator.formData?.get("intent") === "hide" : f.hidden;
  const rating = Math.max(0, Math.min(5, Math.round(f.rating)));

  return (
    <li
      className="card inbox-item feedback-admin-item"
      data-hidden={hidden || undefined}
      data-fresh={fresh || undefined}
      data-pending={moderator.state !== "idle" || undefined}
      data-id={f._id}
    >
      <div className="inbox-item-head">
        <span className="avatar avatar-sm" aria-hidden="true">
          {initials(f.name)}
        </span>
        <div className="inbox-item-who">
          <p className="inbox-item-name" tabIndex={-1}>
            <span className="user-text">{f.name}</span>
            {fresh ? <span className="badge badge-amber">{t("contactInbox.new")}</span> : null}
            {hidden ? (
              <span className="badge hidden-badge">
                <EyeOffIcon />
                {t("feedbackAdmin.hidden")}
              </span>
            ) : null}
          </p>
          <a href={`mailto:${f.email}`} className="inbox-item-email" dir="ltr">
            {f.email}
          </a>
        </div>
        <span className="inbox-item-time">
          <TimeAgo iso={f.createdAt} />
          {/* Changed by its author since it was written (perhaps after an admin read it): said, with when. */}
          {f.editedAt ? (
            <span className="inbox-item-edited">
              {t("feedbackAdmin.edited")} <TimeAgo iso={f.editedAt} />
            </span>
          ) : null}
        </span>
      </div>
      <div className="feedback-admin-facts">
        <div className="stars" role="img" aria-label={t("feedback.ratingLabel", { rating })}>
          {Array.from({ length: 5 }, (_, i) => (
            <StarIcon key={i} filled={i < rating} className={i < rating ? "star star-on" : "star"} />
          ))}
          <span className="stars-value" aria-hidden="true">
            {t("feedback.rating", { rating })}
          </span>
        </div>
        <p className="feedback-admin-group">
          <span className="visually-hidden">{t("feedbackAdmin.group")}: </span>
          <Link to={`/dashboard/admin/group/${f.groupSlug}`} dir="auto">
            {f.groupTitle ?? f.groupSlug}
          </Link>
        </p>
      </div>
      <p className="inbox-item-body" dir="auto">
        {f.userFeedback}
      </p>
      <div className="inbox-item-actions">
        <moderator.Form method="post" className="inline-form">
          <input type="hidden" name="id" value={f._id} />
          <button
            type="submit"
            name="intent"
            value={hidden ? "show" : "hide"}
            className="btn btn-ghost btn-sm"
            aria-label={hidden ? t("feedbackAdmin.showLabel", { name: f.name }) : t("feedbackAdmin.hideLabel", { name: f.name })}
          >
            {hidden ? <EyeIcon /> : <EyeOffIcon />}
            {hidden ? t("feedbackAdmin.show") : t("feedbackAdmin.hide")}
          </button>
        </moderator.Form>
        <button type="button" className="btn btn-ghost btn-sm btn-danger-text" onClick={onDelete} aria-label={t("feedbackAdmin.deleteLabel", { name: f.name })}>
          <TrashIcon />
          {t("feedbackAdmin.delete")}
        </button>
      </div>
      {moderator.state === "idle" && moderator.data && !moderator.data.ok ? (
        <RefusalText className="field-error" attempt={moderator.data}>
          {t("feedbackAdmin.failed")}
        </RefusalText>
      ) : null}
    </li>
  );
}
