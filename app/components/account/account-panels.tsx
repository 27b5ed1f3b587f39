import { ToastRegion, useToasts } from "~/components/toast";
import { useT } from "~/lib/i18n";
import { DeleteAccount } from "./delete-account";
import { DevicesPanel, type Device } from "./devices-panel";
import { ChangePasswordForm, EditProfileForm } from "./profile-forms";
import { ProfileDetails, ProfileGroups, type SummaryPerson } from "./profile-summary";

export interface AccountPanelsData {
  profile: SummaryPerson & {
    hasPassword: boolean;
    groups: { _id: string; title: string; slug: string; status: "pending" | "approved" | "special" | "rejected" | "left" | "removed" }[];
  };
  devices: Device[];
  minPassword: number;
}

/**
 * Everything on one's own account page, for every role: details and groups, then the forms (profile,
 * password), the signed-in devices and deleting the account. Success shows a toast; errors show inline.
 * `groupHref` says where a group links to (members open their course; staff have no link here).
 */
export function AccountPanels({ data, groupHref }: { data: AccountPanelsData; groupHref?: (slug: string, status: string) => string | null }) {
  const { t } = useT();
  const { toasts, show, dismiss } = useToasts();
  const { profile, devices, minPassword } = data;
  return (
    <div className="account-grid">
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
      <div className="account-column">
        <ProfileDetails person={profile} title={t("account.details")} />
        {/* Staff run groups rather than join them: their groups live in their area, not on the account page. */}
        {profile.role === "user" || profile.groups.length > 0 ? (
          <ProfileGroups
            title={t("account.groups.title")}
            empty={t("account.groups.empty")}
            groups={profile.groups.map((g) => ({ key: g._id, title: g.title, slug: g.slug, status: g.status, href: groupHref?.(g.slug, g.status) ?? null }))}
          />
        ) : null}
      </div>
      <div className="account-column">
        <EditProfileForm name={profile.name} phone={profile.phone_number} country={profile.country} notify={show} />
        <ChangePasswordForm hasPassword={profile.hasPassword} minPassword={minPassword} notify={show} />
        <DevicesPanel devices={devices} notify={show} />
        <DeleteAccount hasPassword={profile.hasPassword} />
      </div>
    </div>
  );
}
