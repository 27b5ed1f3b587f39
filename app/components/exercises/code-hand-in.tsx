import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useT } from "~/lib/i18n";
import type { RunReport } from "../../../worker/sandbox/types";
import { TestReport } from "./test-report";

/**
 * A code hand-in in the grader: the code as handed in (read-only, left to right) and the tests' full report. The
 * grader's list carries a summary of each report (no output, no values); the whole one is loaded for the hand-in on
 * screen from `wholeReportUrl`, and the summary shows meanwhile (or if the load fails).
 */
export function CodeHandIn({ code, report, wholeReportUrl }: { code: string; report: RunReport | null; wholeReportUrl?: string }) {
  const { t } = useT();
  const whole = useFetcher<{ report: RunReport | null }>();
  const partial = Boolean(report?.partial && wholeReportUrl);
  // Asked once per hand-in: a second `load` before the fetcher's state turns "loading" (any render in between)
  // would cancel the first request.
  const asked = useRef<string | null>(null);
  const { load } = whole;
  useEffect(() => {
    if (!partial || !wholeReportUrl || asked.current === wholeReportUrl) return;
    asked.current = wholeReportUrl;
    load(wholeReportUrl);
  }, [partial, wholeReportUrl, load]);
  const shown = (partial ? whole.data?.report : null) ?? report;
  return (
    <div className="code-hand-in" aria-busy={partial && !whole.data ? true : undefined}>
      <details open>
        <summary>{t("exercises.grader.code")}</summary>
        <pre className="code-block" dir="ltr" tabIndex={0} data-scroll-stop="" aria-label={t("exercises.grader.code")}>
          <code>{code}</code>
        </pre>
      </details>
      {shown ? <TestReport report={shown} label={t("exercises.grader.report")} /> : null}
      <p className="field-hint">{t("exercises.grader.override")}</p>
    </div>
  );
}
