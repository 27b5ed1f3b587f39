import { useT } from "~/lib/i18n";
import type { RunReport } from "../../../worker/sandbox/types";
import { TestReport } from "./test-report";

/** A code hand-in in the grader: the code as handed in (read-only, left to right) and the tests' full report. */
export function CodeHandIn({ code, report }: { code: string; report: RunReport | null }) {
  const { t } = useT();
  return (
    <div className="code-hand-in">
      <details open>
        <summary>{t("exercises.grader.code")}</summary>
        <pre className="code-block" dir="ltr" tabIndex={0} aria-label={t("exercises.grader.code")}>
          <code>{code}</code>
        </pre>
      </details>
      {report ? <TestReport report={report} label={t("exercises.grader.report")} /> : null}
      <p className="field-hint">{t("exercises.grader.override")}</p>
    </div>
  );
}
