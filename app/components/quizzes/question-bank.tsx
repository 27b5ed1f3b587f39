import { useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { BookIcon } from "~/components/icons";
import type { MessageKey } from "~/i18n/en";
import { failureText, type FailureLike } from "~/lib/group-errors";
import { useT } from "~/lib/i18n";
import type { QuestionType } from "~/lib/quiz-schemas";
import { blank, QuestionEditor, toDraft, toPayload, type Draft } from "./quiz-editor";
import { useFocusFirstProblem, useFocusOnOpen, useListEditor } from "~/lib/use-editor-focus";
import { EmptyState } from "~/components/empty-state";
import { RefusalText } from "~/components/form-field";

export interface BankQuestion {
  _id: string;
  text: string;
  type: QuestionType;
  options: string[];
  correct: (number | string)[];
  points: number;
  tags: string[];
}

type Result = ({ ok: true; intent: string } | (FailureLike & { ok: false; intent: string })) & { target?: string };

const BANK_TYPES: QuestionType[] = ["single", "multiple", "true-false", "short-text"];

/** A question's Markdown as one plain line for the list. */
const plain = (source: string) => source.replace(/```[\s\S]*?```/g, "[code]").replace(/[`*_#>]/g, "").replace(/\s+/g, " ").trim();

/**
 * The group's question bank on its Quizzes tab (issue 21): tagged questions a quiz draws from (N of a tag per
 * attempt), filtered by tag, each editable with the quiz editor's question form plus its tags.
 */
export function QuestionBankSection({ questions, tags }: { questions: BankQuestion[]; tags: Record<string, number> }) {
  const { t } = useT();
  const { editing, setEditing, current, deleting, setDeleting, remover, sectionRef } = useListEditor<BankQuestion, Result>(questions, "#bank-title");
  const [tag, setTag] = useState<string>("");
  const shown = tag ? questions.filter((q) => q.tags.includes(tag)) : questions;

  return (
    <section ref={sectionRef} className="bank-section" aria-labelledby="bank-title">
      <div className="section-head">
        <div>
          <h2 id="bank-title" className="block-title" tabIndex={-1}>
            {t("bank.title")}
          </h2>
          <p className="muted">{t("bank.lead")}</p>
        </div>
        {editing === null ? (
          <button type="button" className="btn btn-outline" onClick={() => setEditing("new")} data-opens-editor="new">
            {t("bank.new")}
          </button>
        ) : null}
      </div>
      {editing !== null ? <BankEditor key={editing} question={current} onDone={() => setEditing(null)} /> : null}
      {questions.length === 0 ? (
        editing === null ? (
          <EmptyState icon={<BookIcon />} title={t("bank.empty.title")} body={t("bank.empty.body")} />
        ) : null
      ) : (
        <>
          <div className="bank-tags" role="group" aria-label={t("bank.filter")}>
            <button type="button" className="btn btn-ghost btn-sm" aria-pressed={tag === ""} onClick={() => setTag("")}>
              {t("bank.allTags", { n: questions.length })}
            </button>
            {Object.entries(tags)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([name, n]) => (
                <button key={name} type="button" className="btn btn-ghost btn-sm" aria-pressed={tag === name} onClick={() => setTag(name)}>
                  <span dir="auto">{name}</span> ({n})
                </button>
              ))}
          </div>
          <ul className="bank-list" role="list">
            {shown.map((q) => (
              <li key={q._id} className="card bank-item">
                <p className="bank-text user-text" dir="auto">
                  {plain(q.text).slice(0, 200)}
                </p>
                <p className="muted bank-meta">
                  {t(`quizEditor.type.${q.type}` as MessageKey)} · {t("quiz.points", { n: q.points })}
                </p>
                <ul className="bank-item-tags" role="list" aria-label={t("bank.tags")}>
                  {q.tags.map((name) => (
                    <li key={name} className="badge" dir="auto">
                      {name}
                    </li>
                  ))}
                </ul>
                <div className="bank-actions">
                  <button type="button" className="btn btn-outline btn-sm" onClick={() => setEditing(q._id)} disabled={editing !== null} data-opens-editor={q._id}>
                    {t("bank.edit")}
                    <span className="visually-hidden"> {plain(q.text).slice(0, 60)}</span>
                  </button>
                  <button type="button" className="btn btn-ghost btn-sm btn-destructive-ghost" onClick={() => setDeleting(q)}>
                    {t("bank.delete")}
                    <span className="visually-hidden"> {plain(q.text).slice(0, 60)}</span>
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      <remover.Form method="post" id="bank-delete-form">
        <input type="hidden" name="intent" value="bank-delete" />
        <input type="hidden" name="questionId" value={deleting?._id ?? ""} />
      </remover.Form>
      <ConfirmDialog open={deleting !== null} onClose={() => setDeleting(null)} title={t("bank.deleteTitle")} confirmLabel={t("bank.delete")} form="bank-delete-form" busy={remover.state !== "idle"} danger>
        <p>{t("bank.deleteBody")}</p>
        {remover.data && !remover.data.ok ? <p className="form-error">{failureText(t, remover.data)}</p> : null}
      </ConfirmDialog>
    </section>
  );
}

function BankEditor({ question, onDone }: { question: BankQuestion | null; onDone: () => void }) {
  const { t } = useT();
  const uid = useId();
  const fetcher = useFetcher<Result>();
  const [draft, setDraft] = useState<Draft>(() => (question ? toDraft({ ...question, _id: question._id }) : blank()));
  const [tags, setTags] = useState(question?.tags.join(", ") ?? "");
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onDone();
  }, [fetcher.state, fetcher.data, onDone]);
  const failure = fetcher.data && !fetcher.data.ok ? fetcher.data : null;
  // A refusal of the form's own fields is said at the field: the question's (its text, options, answer) on the
  // question, the tags' under the tags; anything else above the buttons.
  const fields = failure?.code === "validation_failed" ? (failure.fields ?? {}) : {};
  const questionProblem = Object.entries(fields).find(([k]) => k === "question" || k.startsWith("question."))?.[1];
  const tagsProblem = Object.keys(fields).some((k) => k === "tags" || k.startsWith("tags."));
  const formProblem = failure && !questionProblem && !tagsProblem;
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstProblem(formRef, failure, fetcher.state === "idle");
  const payload = JSON.stringify({ question: toPayload(draft), tags: tags.split(/[,،]/).map((x) => x.trim()).filter(Boolean) });
  const titleRef = useFocusOnOpen<HTMLHeadingElement>();
  return (
    // The app's own refusals, in the reader's language and at their fields, rather than the browser's bubble on the
    // first required field in the browser's language (`required` stays for what it tells a screen reader).
    <fetcher.Form ref={formRef} method="post" className="card form-card bank-editor" aria-labelledby={`${uid}-title`} noValidate>
      <input type="hidden" name="intent" value="bank-save" />
      <input type="hidden" name="questionId" value={question?._id ?? ""} />
      <input type="hidden" name="payload" value={payload} />
      <h3 id={`${uid}-title`} ref={titleRef} className="task-card-title" tabIndex={-1}>
        {t(question ? "bank.editTitle" : "bank.newTitle")}
      </h3>
      <QuestionEditor draft={draft} n={1} total={1} locked={false} error={questionProblem} onChange={(change) => setDraft((d) => ({ ...d, ...change }))} onMove={() => undefined} onRemove={onDone} types={BANK_TYPES} />
      <div className="field">
        <label htmlFor={`${uid}-tags`}>{t("bank.tagsField")}</label>
        <input
          id={`${uid}-tags`}
          value={tags}
          onChange={(e) => setTags(e.target.value)}
          dir="auto"
          aria-invalid={tagsProblem || undefined}
          aria-describedby={tagsProblem ? `${uid}-tags-error ${uid}-tags-hint` : `${uid}-tags-hint`}
          required
        />
        {tagsProblem ? (
          <p id={`${uid}-tags-error`} className="field-error">
            {t("bank.error.tags")}
          </p>
        ) : null}
        <p id={`${uid}-tags-hint`} className="field-hint field-hint-block">
          {t("bank.tagsHint")}
        </p>
      </div>
      {formProblem ? (
        <RefusalText className="form-error" attempt={failure}>
          {failure.code === "validation_failed" ? t("bank.error.question") : failureText(t, failure)}
        </RefusalText>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle" ? t("lectures.saving") : t("bank.save")}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          {t("rubrics.cancel")}
        </button>
      </div>
    </fetcher.Form>
  );
}
