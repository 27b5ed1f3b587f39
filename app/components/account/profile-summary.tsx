import { Link } from "@remix-run/react";
import { useId, type ReactNode } from "react";
import { initials } from "~/components/groups/format";
import { BookIcon } from "~/components/icons";
import { countryById } from "~/lib/countries";
import { formatDate, useT } from "~/lib/i18n";
import { MEMBERSHIP_LABEL, ROLE_LABEL } from "./labels";

export interface SummaryPerson {
  name: string;
  email: string;
  phone_number: string | null;
  country: string | null;
  role: "admin" | "instructor" | "user";
  createdAt: string;
  /** Unknown (undefined) shows no badge. */
  emailVerified?: boolean;
  googleLinked?: boolean;
}

export interface SummaryGroup {
  key: string;
  title: string;
  slug: string;
  /** The person's seat in the group; or `badge`, a badge of its own (a taught group's draft, published or archived). */
  status?: keyof typeof MEMBERSHIP_LABEL;
  badge?: ReactNode;
  /** Where the group's title links to, if anywhere. */
  href?: string | null;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="detail-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A person's details as a definition list: name, e-mail, phone, country, role, joined. */
export function ProfileDetails({ person, title }: { person: SummaryPerson; title: string }) {
  const { t, lang } = useT();
  const country = countryById(person.country);
  return (
    <section className="card account-card" aria-labelledby="details-title">
      <div className="account-identity">
        <span className="avatar avatar-lg" aria-hidden="true">
          {initials(person.name)}
        </span>
        <div>
          <h2 id="details-title" className="account-card-title user-text">
            {person.name}
          </h2>
          <p className="muted">{title}</p>
        </div>
      </div>
      <dl className="detail-list">
        <Row label={t("auth.field.email")}>
          <span dir="ltr">{person.email}</span>{" "}
          {person.emailVerified === undefined ? null : person.emailVerified ? (
            <span className="badge">{t("account.verified")}</span>
          ) : (
            <span className="badge badge-amber">{t("account.unverified")}</span>
          )}
        </Row>
        <Row label={t("auth.field.phone")}>{person.phone_number ? <span dir="ltr">{person.phone_number}</span> : <span className="muted">{t("account.none")}</span>}</Row>
        <Row label={t("auth.field.country")}>{country ? t(country.nameKey) : person.country || <span className="muted">{t("account.none")}</span>}</Row>
        <Row label={t("account.role")}>
          <span className="badge role-badge" data-role={person.role}>
            {t(ROLE_LABEL[person.role])}
          </span>
        </Row>
        <Row label={t("account.joined")}>{formatDate(person.createdAt, lang)}</Row>
        {person.googleLinked !== undefined ? <Row label={t("account.google")}>{person.googleLinked ? t("account.googleLinked") : t("account.googleNotLinked")}</Row> : null}
      </dl>
    </section>
  );
}

/** The groups a person asked to join, each with its membership status. */
export function ProfileGroups({ groups, title, empty }: { groups: SummaryGroup[]; title: string; empty: string }) {
  const { t } = useT();
  const titleId = useId();
  return (
    <section className="card account-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="account-card-title">
        {title}
      </h2>
      {groups.length === 0 ? (
        <p className="empty-inline">{empty}</p>
      ) : (
        <ul role="list" className="membership-list">
          {groups.map((g) => (
            <li key={g.key}>
              <BookIcon />
              {g.href ? (
                <Link to={g.href} className="user-text">
                  {g.title}
                </Link>
              ) : (
                <span className="user-text">{g.title}</span>
              )}
              {g.badge ??
                (g.status ? (
                  <span className="badge membership-status" data-membership={g.status}>
                    {t(MEMBERSHIP_LABEL[g.status])}
                  </span>
                ) : null)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
