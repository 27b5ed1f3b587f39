import { ExternalIcon } from "~/components/groups/extra-icons";
import { useT } from "~/lib/i18n";
import { githubRepo } from "~/lib/task-rules";

/** A handed-in link, opened in a new tab: "GitHub · owner/repo" for a repository, the address otherwise. */
export function WorkLink({ link }: { link: string }) {
  const { t } = useT();
  const repo = githubRepo(link);
  return (
    <p>
      <a href={link} target="_blank" rel="noopener noreferrer" dir="ltr" className="work-link">
        {repo ? `GitHub · ${repo}` : link}
        <ExternalIcon />
        <span className="visually-hidden"> {t("common.newTab")}</span>
      </a>
    </p>
  );
}
