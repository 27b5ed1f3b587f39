import { useFetcher } from "@remix-run/react";
import { useRef, useState } from "react";
import { When } from "~/components/lectures/when";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";

type Result = { ok: true } | FailureLike;

export interface PinnedAnnouncement {
  _id: string;
  title: string;
  bodyHtml: string;
  author: string | null;
  createdAt: string;
}

/** Pinned announcements shown before "Show older": a term's worth would push the course itself screens down. */
const ANNOUNCEMENTS_SHOWN = 2;

/**
 * The group's announcements pinned for this member (issue 22), newest first, each with its own Dismiss. The newest
 * two are shown; the rest wait behind one button, which says how many.
 */
export function CourseAnnouncements({ announcements }: { announcements: PinnedAnnouncement[] }) {
  const { t } = useT();
  const [expanded, setExpanded] = useState(false);
  const moreRef = useRef<HTMLDivElement>(null);
  if (announcements.length === 0) return null;
  const older = announcements.slice(ANNOUNCEMENTS_SHOWN);
  return (
    <section className="course-announcements" aria-labelledby="announcements-title" id="announcements">
      <h2 id="announcements-title" className="block-title">
        {t("announcements.title")}
      </h2>
      {announcements.slice(0, ANNOUNCEMENTS_SHOWN).map((a) => (
        <Announcement key={a._id} announcement={a} />
      ))}
      {expanded ? (
        <div ref={moreRef} id="announcements-older" className="course-announcements" tabIndex={-1} aria-label={t("announcements.older")}>
          {older.map((a) => (
            <Announcement key={a._id} announcement={a} />
          ))}
        </div>
      ) : null}
      {!expanded && older.length > 0 ? (
        <button
          type="button"
          className="btn btn-ghost btn-sm course-announcements-more"
          aria-expanded={false}
          aria-controls="announcements-older"
          onClick={() => {
            setExpanded(true);
            // The keyboard goes on from the first of those just shown, not from the top of the page.
            requestAnimationFrame(() => moreRef.current?.querySelector<HTMLElement>("h3")?.focus());
          }}
        >
          {t("announcements.showOlder", { count: older.length })}
        </button>
      ) : null}
    </section>
  );
}

/**
 * Where the focus goes when a dismissed announcement (and its Dismiss button) leaves the page: the next pinned one's
 * title, else the first section heading after the announcements, not the top of the page.
 */
function focusPast(article: HTMLElement) {
  const after = (el: Element) => (article.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  const others = [...document.querySelectorAll<HTMLElement>(".course-announcement h3")].filter((h) => !article.contains(h));
  const target = others.find(after) ?? others[0] ?? [...document.querySelectorAll<HTMLElement>("main h2")].find((h) => after(h) && !h.closest(".course-announcements"));
  if (!target) return;
  if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus();
}

function Announcement({ announcement: a }: { announcement: PinnedAnnouncement }) {
  const { t } = useT();
  const dismisser = useFetcher<Result>();
  // Gone at once; it stays gone after the reload unless the dismissal failed.
  if (dismisser.state !== "idle" || dismisser.data?.ok) return null;
  return (
    <article className="course-announcement" aria-labelledby={`announcement-${a._id}`}>
      <div className="cohort-announcement-head">
        <h3 id={`announcement-${a._id}`} className="cohort-item-title user-text" tabIndex={-1}>
          {a.title}
        </h3>
        <dismisser.Form
          method="post"
          onSubmit={(e) => {
            // Only when the focus is on the button that goes (a mouse click leaves it where it was on a phone too).
            const article = e.currentTarget.closest("article");
            if (article && article.contains(document.activeElement)) focusPast(article);
          }}
        >
          <input type="hidden" name="intent" value="dismiss-announcement" />
          <input type="hidden" name="announcementId" value={a._id} />
          <button type="submit" className="btn btn-ghost btn-sm" aria-label={t("announcements.dismissLabel", { title: a.title })}>
            {t("announcements.dismiss")}
          </button>
        </dismisser.Form>
      </div>
      {/* Written in either language, often with lists: the body takes its own direction, as a lecture's text does. */}
      <div className="markdown" dir="auto" dangerouslySetInnerHTML={{ __html: a.bodyHtml }} />
      <p className="cohort-meta">
        <span className="user-text">{a.author ?? ""}</span> · <When iso={a.createdAt} />
      </p>
      {dismisser.data && !dismisser.data.ok ? <p className="form-error">{failureText(t, dismisser.data)}</p> : null}
    </article>
  );
}

export interface OwnCertificate {
  _id: string;
  code: string;
  language: "en" | "ar";
  revokedAt: string | null;
  revokedReason: string | null;
}

/** The graduate's certificate of this course: open it, and choose the language it is written in. */
export function CourseCertificate({ certificate: c }: { certificate: OwnCertificate }) {
  const { t } = useT();
  const chooser = useFetcher<Result>();
  return (
    <section className="card form-card course-certificate" aria-labelledby="certificate-title">
      <h2 id="certificate-title" className="block-title">
        {t("myCertificate.title")}
      </h2>
      {c.revokedAt ? <p className="form-error user-text">{t("myCertificate.revoked", { reason: c.revokedReason ?? "" })}</p> : <p>{t("myCertificate.body")}</p>}
      <div className="course-certificate-actions">
        <a className="btn btn-primary" href={`/certificates/${c.code}`}>
          {t("myCertificate.open")}
        </a>
        {/* A revoked certificate is written in no language any more: its page says it was revoked, nothing to choose. */}
        {c.revokedAt ? null : (
          <chooser.Form method="post" className="course-certificate-actions">
            <input type="hidden" name="intent" value="certificate-language" />
            <input type="hidden" name="certificateId" value={c._id} />
            <div className="field">
              <label htmlFor="certificate-language">{t("myCertificate.language")}</label>
              <select id="certificate-language" name="language" defaultValue={c.language}>
                <option value="en" lang="en">
                  English
                </option>
                <option value="ar" lang="ar">
                  العربية
                </option>
              </select>
            </div>
            <button type="submit" className="btn btn-outline" disabled={chooser.state !== "idle"}>
              {t("myCertificate.languageSave")}
            </button>
          </chooser.Form>
        )}
      </div>
      <p role="status" className={chooser.data && !chooser.data.ok ? "form-error" : "form-ok"}>
        {chooser.state === "idle" && chooser.data ? (chooser.data.ok ? t("myCertificate.languageSaved") : failureText(t, chooser.data)) : ""}
      </p>
    </section>
  );
}
