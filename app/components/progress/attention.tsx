import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { AlertIcon, BookIcon, CheckIcon, InboxIcon, MailIcon, UsersIcon } from "~/components/icons";
import { isolate } from "~/lib/bidi";
import { useT } from "~/lib/i18n";
import type { Attention } from "../../../worker/services/dashboard";
import { AtRiskReasons } from "./progress-summary";

function Item({ icon, title, tone, children }: { icon: ReactNode; title: string; tone?: "live"; children: ReactNode }) {
  return (
    <li className="card attention-item" data-tone={tone}>
      {icon}
      <p className="attention-item-title">{title}</p>
      <div className="attention-links">{children}</div>
    </li>
  );
}

/**
 * The top of the staff landings: what needs doing now, each with a link to the screen where it is done. Admins
 * see every group and the contact inbox; instructors their own groups.
 */
export function AttentionList({ attention: a, area }: { attention: Attention; area: "admin" | "instructor" }) {
  const { t } = useT();
  const groupBase = (slug: string) => (area === "admin" ? `/dashboard/admin/group/${slug}` : `/instructor/group/${slug}`);
  const studentHref = (groupSlug: string, slug: string) => (area === "admin" ? `/dashboard/admin/allStudent/student/${slug}` : `/instructor/${groupSlug}/student/${slug}`);
  const inbox = area === "admin" ? "/dashboard/admin/email-request" : "/instructor/email-request";
  const nothing = a.requests.total === 0 && a.ungraded.total === 0 && a.live.length === 0 && !a.unreadMessages && a.atRisk.total === 0;

  return (
    <section className="attention" aria-labelledby="attention-title">
      <h2 id="attention-title" className="block-title">
        {t("attention.title")}
      </h2>
      {nothing ? (
        <p className="card attention-none">
          <CheckIcon />
          {t("attention.none")}
        </p>
      ) : (
        <ul role="list" className="attention-list">
          {a.live.length > 0 ? (
            <Item icon={<UsersIcon />} title={t("attention.attendanceOpen")} tone="live">
              {a.live.map((l) => (
                <Link key={`${l.groupSlug}/${l.lectureSlug}`} to={`${groupBase(l.groupSlug)}/lectures/${l.lectureSlug}/attendance`}>
                  <span className="user-text">{t("attention.attendanceLine", { lecture: isolate(l.lectureTitle), checkedIn: l.checkedIn, members: l.members })}</span>
                </Link>
              ))}
            </Item>
          ) : null}
          {a.requests.total > 0 ? (
            <Item icon={<InboxIcon />} title={t("attention.requests", { count: a.requests.total })}>
              {a.requests.groups.map((g) => (
                <span key={g.slug} className="user-text">
                  {t("attention.requestsIn", { group: isolate(g.title), count: g.count })}
                </span>
              ))}
              <Link to={inbox}>{t("attention.open")}</Link>
            </Item>
          ) : null}
          {a.ungraded.total > 0 ? (
            <Item icon={<BookIcon />} title={t("attention.ungraded", { count: a.ungraded.total })}>
              {a.ungraded.groups.map((g) => (
                <Link key={g.slug} to={`${groupBase(g.slug)}/tasks`} className="user-text">
                  {t("attention.requestsIn", { group: isolate(g.title), count: g.count })}
                </Link>
              ))}
            </Item>
          ) : null}
          {a.atRisk.total > 0 ? (
            <Item icon={<AlertIcon />} title={t("attention.atRisk", { count: a.atRisk.total })}>
              {a.atRisk.groups.map((g) => (
                <span key={g.slug}>
                  <Link to={`${groupBase(g.slug)}/progress`} className="user-text">
                    {t("attention.groupCount", { group: isolate(g.title), count: g.count })}
                  </Link>
                  {": "}
                  {g.students.map((s, i) => (
                    <span key={s.slug} className="attention-student">
                      {i > 0 ? t("list.separator") : null}
                      <Link to={studentHref(g.slug, s.slug)} className="user-text">
                        {s.name}
                      </Link>
                      <AtRiskReasons reasons={s.reasons} />
                    </span>
                  ))}
                  {g.count > g.students.length ? ` ${t("attention.more", { count: g.count - g.students.length })}` : null}
                </span>
              ))}
            </Item>
          ) : null}
          {a.unreadMessages ? (
            <Item icon={<MailIcon />} title={t("attention.messages", { count: a.unreadMessages })}>
              <Link to="/dashboard/admin/get-all-message-by-admin">{t("attention.open")}</Link>
            </Item>
          ) : null}
        </ul>
      )}
    </section>
  );
}
