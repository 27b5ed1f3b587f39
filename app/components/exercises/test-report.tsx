import type { ReactNode } from "react";
import { AlertIcon, CheckIcon } from "~/components/icons";
import { useT } from "~/lib/i18n";
import type { RunReport } from "../../../worker/sandbox/types";

type T = ReturnType<typeof useT>["t"];

/** The runner's own limit messages in the reader's language; an engine error ("TypeError: …") stays as it is. */
function errorText(t: T, error: string): string {
  const time = /^Time limit exceeded \((\d+) ms of work\)/.exec(error);
  if (time) return t("exercises.limit.time", { ms: Number(time[1]) });
  if (error.startsWith("Memory limit exceeded")) return t("exercises.limit.memory");
  if (error.startsWith("Stack overflow")) return t("exercises.limit.stack");
  if (error.startsWith("Not run:")) return t("exercises.limit.budget");
  if (error.startsWith("The result is too large")) return t("exercises.limit.result");
  if (error.startsWith("The code stopped the engine")) return t("exercises.limit.engine");
  return error;
}

/**
 * A run's results, one row per test: pass or fail, its name and points, and for a test the reader may see in full
 * the call, the expected and returned values, the error and the console output. Hidden tests (as students get
 * them) carry only their name and result.
 */
/** One test's line: its mark, name, "hidden" badge and verdict (the code exercise's report and a quiz's code review). */
export function TestHead({ test, children }: { test: { name: string; passed: boolean; hidden?: boolean }; children?: ReactNode }) {
  const { t } = useT();
  return (
    <div className="test-head">
      <span className="test-mark" aria-hidden="true">
        {test.passed ? <CheckIcon /> : <AlertIcon />}
      </span>
      <span className="test-name user-text" dir="auto">
        {test.name}
      </span>
      {test.hidden ? <span className="badge test-hidden">{t("exercises.hiddenTest")}</span> : null}
      <span className="test-verdict">{t(test.passed ? "exercises.passed" : "exercises.failed")}</span>
      {children}
    </div>
  );
}

export function TestReport({ report, calls = {}, label }: { report: RunReport; calls?: Record<string, string>; label: string }) {
  const { t } = useT();
  const passed = report.results.filter((r) => r.passed).length;
  return (
    <section className="test-report" aria-label={label}>
      <p className="test-report-summary" data-all={passed === report.results.length || undefined}>
        {t("exercises.report.summary", {
          passed,
          total: report.results.length,
          score: report.score,
          max: report.maxScore,
        })}
      </p>
      <ol className="test-list" role="list">
        {report.results.map((r, i) => {
          const call = calls[r.name];
          const detail = !r.passed && (r.error || r.actual !== undefined);
          return (
            <li key={`${i}-${r.name}`} className="test-row" data-passed={r.passed}>
              <TestHead test={r}>
                <span className="test-points">{t("exercises.points", { n: r.points })}</span>
              </TestHead>
              {call || detail || r.output ? (
                <dl className="test-detail" dir="ltr">
                  {call ? (
                    <>
                      <dt>{t("exercises.tests.call")}</dt>
                      <dd>
                        <code>{call}</code>
                      </dd>
                    </>
                  ) : null}
                  {detail && r.expected !== undefined ? (
                    <>
                      <dt>{t("exercises.tests.expected")}</dt>
                      <dd>
                        <code>{r.expected}</code>
                      </dd>
                    </>
                  ) : null}
                  {detail && r.actual !== undefined ? (
                    <>
                      <dt>{t("exercises.tests.got")}</dt>
                      <dd>
                        <code>{r.actual}</code>
                      </dd>
                    </>
                  ) : null}
                  {r.error ? (
                    <>
                      <dt>{t("exercises.tests.error")}</dt>
                      <dd className="test-error">
                        <code dir="auto">{errorText(t, r.error)}</code>
                      </dd>
                    </>
                  ) : null}
                  {r.output ? (
                    <>
                      <dt>{t("exercises.tests.output")}</dt>
                      <dd>
                        <pre className="test-output">{r.output}</pre>
                      </dd>
                    </>
                  ) : null}
                </dl>
              ) : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
