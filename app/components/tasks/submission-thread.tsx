import { useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { When } from "~/components/lectures/when";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";
import { WorkLink } from "./work-link";
import { RefusalText } from "~/components/form-field";

export interface ThreadVersion {
  number: number;
  link: string;
  notes: string | null;
  code: string | null;
  submittedAt: string;
  late: boolean;
}

export interface ThreadComment {
  _id: string;
  author: { _id: string | null; name: string; staff: boolean };
  body: string;
  createdAt: string;
}

type Result = ({ ok: true; intent: string } | (FailureLike & { ok: false; intent: string })) & { target?: string };

/**
 * A hand-in's history and private conversation (issue 21), on the student's task page and in the grader: every
 * version handed in (newest first, the current one marked), and the messages between the student and the staff with a
 * box to write. Sends intent=comment with the submission's id to the page's action. `ended`: the student's course has
 * ended, so the conversation is read, not written (the server refuses it too: course_ended).
 */
export function SubmissionThread({ submissionId, versions, comments, viewerIsStaff, ended = false }: { submissionId: string; versions: ThreadVersion[]; comments: ThreadComment[]; viewerIsStaff: boolean; ended?: boolean }) {
  const { t } = useT();
  const uid = useId();
  const fetcher = useFetcher<Result>();
  const [body, setBody] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  const send = useRef<HTMLButtonElement>(null);
  const [said, setSaid] = useState("");
  const handled = useRef<unknown>(null);
  const failure = fetcher.data && !fetcher.data.ok ? fetcher.data : null;
  useEffect(() => {
    const done = fetcher.data;
    if (fetcher.state !== "idle" || !done || handled.current === done) return;
    handled.current = done;
    if (done.ok) setBody("");
    setSaid(done.ok ? t("thread.sent") : "");
    // Send disables itself while it sends and while the box is empty, which drops the keyboard to the page: it goes
    // back to the box, for the next message or to mend a refused one (said in the alert).
    const at = document.activeElement;
    if (!at || at === document.body || at === send.current) box.current?.focus();
  }, [fetcher.state, fetcher.data, t]);
  // The grader shows one student's thread after another in the same place: a "sent" belongs to the one it was said for.
  useEffect(() => setSaid(""), [submissionId]);

  return (
    <div className="submission-thread">
      {versions.length > 1 ? (
        <details className="submission-versions">
          <summary>{t("thread.versions", { n: versions.length })}</summary>
          <ol className="submission-version-list" role="list" reversed>
            {[...versions].reverse().map((v) => (
              <li key={v.number} className="submission-version">
                <p className="muted">
                  {t("thread.version", { n: v.number })} · <When iso={v.submittedAt} />
                  {v.late ? ` · ${t("tasks.state.late")}` : ""}
                  {v.number === versions.length ? <span className="badge">{t("thread.current")}</span> : null}
                </p>
                {v.code !== null ? (
                  <pre className="code-block submission-version-code" dir="ltr">
                    <code>{v.code}</code>
                  </pre>
                ) : (
                  <WorkLink link={v.link} />
                )}
                {v.notes ? (
                  <p className="work-notes" dir="auto">
                    {v.notes}
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      <section className="submission-conversation" aria-labelledby={`${uid}-title`}>
        <h3 id={`${uid}-title`} className="task-card-title">
          {t("thread.title")}
        </h3>
        <p className="muted">{t(viewerIsStaff ? "thread.leadStaff" : "thread.leadStudent")}</p>
        {comments.length === 0 ? (
          <p className="empty-inline">{t("thread.empty")}</p>
        ) : (
          <ol className="submission-comments" role="list">
            {comments.map((c) => (
              <li key={c._id} className="submission-comment" data-staff={c.author.staff || undefined}>
                <p className="submission-comment-head">
                  <strong className="user-text">{c.author.name || t("thread.someone")}</strong>
                  {c.author.staff ? <span className="badge">{t("thread.staff")}</span> : null}
                  <span className="muted">
                    <When iso={c.createdAt} />
                  </span>
                </p>
                <p className="submission-comment-body" dir="auto">
                  {c.body}
                </p>
              </li>
            ))}
          </ol>
        )}
        {ended ? (
          <p className="muted submission-thread-ended" role="note">
            {t("thread.ended")}
          </p>
        ) : (
          <fetcher.Form method="post" className="submission-comment-form">
            <input type="hidden" name="intent" value="comment" />
            <input type="hidden" name="submissionId" value={submissionId} />
            <div className="field">
              <label htmlFor={`${uid}-body`} className="visually-hidden">
                {t("thread.write")}
              </label>
              <textarea ref={box} id={`${uid}-body`} name="body" rows={2} value={body} onChange={(e) => {
                  setBody(e.target.value);
                  setSaid("");
                }}
                placeholder={t("thread.write")} dir="auto" maxLength={5000} required />
            </div>
            {failure ? (
              <RefusalText className="form-error" attempt={failure}>
                {failure.code === "validation_failed" ? t("thread.error") : failureText(t, failure)}
              </RefusalText>
            ) : null}
            <div className="form-actions">
              <button ref={send} type="submit" className="btn btn-outline btn-sm" disabled={fetcher.state !== "idle" || body.trim() === ""}>
                {t("thread.send")}
              </button>
              <span role="status" className="muted submission-thread-said">
                {said}
              </span>
            </div>
          </fetcher.Form>
        )}
      </section>
    </div>
  );
}
