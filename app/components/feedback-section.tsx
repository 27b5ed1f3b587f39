import { Await, Link } from "@remix-run/react";
import { Suspense, useEffect, useRef, useState } from "react";
import { useT } from "~/lib/i18n";
import type { PublicFeedbackDto } from "../../worker/services/feedback";
import { ArrowIcon, ChatIcon, QuoteIcon, StarIcon } from "./icons";
import { LoadingState } from "./spinner";
import { EmptyState } from "~/components/empty-state";

/** Cards per page; Previous and Next move by this much (spec §9). */
export const FEEDBACK_PAGE_SIZE = 3;
const MAX_RATING = 5;

/**
 * Student Feedback: streams the public list, 3 cards at a time with Previous / Next and
 * "Showing X-Y of N"; an empty, non-array or failed list shows the empty state.
 */
export function FeedbackSection({ feedback }: { feedback: Promise<unknown> | unknown }) {
  const { t } = useT();
  return (
    <section id="feedback" className="section section-tinted feedback" aria-labelledby="feedback-title">
      <div className="container">
        <header className="section-header">
          <h2 id="feedback-title" className="section-title">{t("feedback.title")}</h2>
          <p className="section-subtitle">{t("feedback.subtitle")}</p>
        </header>
        <Suspense fallback={<LoadingState />}>
          <Await resolve={feedback} errorElement={<FeedbackEmpty />}>
            {(list) => (Array.isArray(list) && list.length > 0 ? <FeedbackPager items={list as PublicFeedbackDto[]} /> : <FeedbackEmpty />)}
          </Await>
        </Suspense>
        <p className="feedback-share">
          <Link to="/add-feedback" className="btn btn-outline">
            <ChatIcon />
            {t("feedback.share")}
          </Link>
        </p>
      </div>
    </section>
  );
}

function FeedbackEmpty() {
  const { t } = useT();
  return (
    <EmptyState icon={<ChatIcon />} title={t("feedback.empty.title")} body={t("feedback.empty.body")} />
  );
}

function FeedbackPager({ items }: { items: PublicFeedbackDto[] }) {
  const { t } = useT();
  const [offset, setOffset] = useState(0);
  const total = items.length;
  const page = items.slice(offset, offset + FEEDBACK_PAGE_SIZE);
  const atStart = offset === 0;
  const atEnd = offset + FEEDBACK_PAGE_SIZE >= total;
  // At either end its button disables itself; the focus goes to the other one, not to the page.
  const prevRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const moved = useRef(false);
  const go = (to: number) => {
    moved.current = true;
    setOffset(to);
  };
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    if (atStart) nextRef.current?.focus();
    else if (atEnd) prevRef.current?.focus();
  }, [offset, atStart, atEnd]);
  return (
    <div className="feedback-pager">
      <ul className="card-grid feedback-grid" role="list">
        {page.map((f) => (
          <li key={f._id}>
            <FeedbackCard item={f} />
          </li>
        ))}
      </ul>
      <div className="pager">
        <button ref={prevRef} type="button" className="btn btn-outline btn-sm" disabled={atStart} onClick={() => go(Math.max(0, offset - FEEDBACK_PAGE_SIZE))}>
          <ArrowIcon className="icon-back" />
          {t("common.previous")}
        </button>
        <p className="pager-count" aria-live="polite" data-testid="feedback-count">
          {t("feedback.showing", { from: offset + 1, to: Math.min(offset + FEEDBACK_PAGE_SIZE, total), total })}
        </p>
        <button ref={nextRef} type="button" className="btn btn-outline btn-sm" disabled={atEnd} onClick={() => go(Math.min(offset + FEEDBACK_PAGE_SIZE, Math.max(0, total - 1)))}>
          {t("common.next")}
          <ArrowIcon />
        </button>
      </div>
    </div>
  );
}

function FeedbackCard({ item }: { item: PublicFeedbackDto & { groupTitle?: string | null } }) {
  const { t } = useT();
  const rating = Math.max(0, Math.min(MAX_RATING, Math.round(item.rating)));
  const initials = item.name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join("");
  return (
    <figure className="card feedback-card">
      <QuoteIcon className="feedback-quote" />
      <div className="stars" role="img" aria-label={t("feedback.ratingLabel", { rating })}>
        {Array.from({ length: MAX_RATING }, (_, i) => (
          <StarIcon key={i} filled={i < rating} className={i < rating ? "star star-on" : "star"} />
        ))}
        <span className="stars-value" aria-hidden="true">{t("feedback.rating", { rating })}</span>
      </div>
      <blockquote className="feedback-text user-text">
        <p>{item.userFeedback}</p>
      </blockquote>
      <figcaption className="feedback-author">
        <span className="avatar" aria-hidden="true">{initials}</span>
        <span>
          <span className="feedback-name">{item.name}</span>
          <span className="feedback-group" dir="auto">
            {item.groupTitle ?? item.groupSlug.replace(/-/g, " ")}
          </span>
        </span>
      </figcaption>
    </figure>
  );
}
