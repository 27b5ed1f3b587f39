import { TestHead } from "~/components/exercises/test-report";
import { useT } from "~/lib/i18n";

/** A code question's test as the review shows it: its name and result. */
export interface ReviewTest {
  name: string;
  passed: boolean;
  hidden: boolean;
}

/**
 * A code question's tests in the review: which passed and which failed (names only for hidden tests), as judged
 * when the attempt was graded. An attempt graded before tests were recorded says only whether all passed.
 */
export function ReviewTests({ id, tests, right, answered }: { id: string; tests: ReviewTest[] | null; right: boolean; answered: boolean }) {
  const { t } = useT();
  if (!answered) return null;
  if (!tests || tests.length === 0) return <p className="quiz-tests-summary">{t(right ? "quiz.answers.allPassed" : "quiz.answers.notAllPassed")}</p>;
  const passed = tests.filter((r) => r.passed).length;
  return (
    <section className="quiz-tests" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="quiz-tests-title">
        {t("quiz.answers.tests")}
        <span className="muted"> · {t("quiz.answers.testsPassed", { passed, total: tests.length })}</span>
      </h3>
      <ol className="test-list" role="list">
        {tests.map((r, i) => (
          <li key={`${i}-${r.name}`} className="test-row" data-passed={r.passed}>
            <TestHead test={r} />
          </li>
        ))}
      </ol>
    </section>
  );
}
