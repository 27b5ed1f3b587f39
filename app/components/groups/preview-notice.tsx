import { Link } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import { AlertIcon } from "../icons";

/**
 * Above a draft or archived group's public page, which only the staff who run it can open: what visitors see
 * instead (nothing), and the way back to running it. Nothing for a published group.
 */
export function PreviewNotice({ status, manageHref, publishHref = null }: { status: "draft" | "published" | "archived"; manageHref: string | null; publishHref?: string | null }) {
  const { t } = useT();
  if (status === "published") return null;
  return (
    <div className="preview-notice" role="note">
      <AlertIcon />
      <p>
        <strong>{t(status === "draft" ? "groups.preview.draftTitle" : "groups.preview.archivedTitle")}</strong>{" "}
        {t(status === "draft" ? "groups.preview.draftBody" : "groups.preview.archivedBody")}
        {manageHref ? (
          <>
            {" "}
            <Link to={manageHref}>{t("groups.preview.manage")}</Link>
          </>
        ) : null}
        {status === "draft" && publishHref ? (
          <>
            {" · "}
            <Link to={publishHref}>{t("groups.preview.publish")}</Link>
          </>
        ) : null}
      </p>
    </div>
  );
}
