import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useT } from "~/lib/i18n";
import { snippetKey } from "~/lib/snippet-key";

export interface Snippet {
  _id: string;
  text: string;
}


/**
 * The grader's feedback (issue 21): Markdown with a preview rendered by the server as the student will see it, and the
 * grader's comment bank, whose first nine snippets go in at the cursor with Alt+1 to Alt+9 (or a click). The current
 * feedback, or the selected part of it, can be kept as a new snippet.
 */
export function FeedbackField({ value, onChange, snippets }: { value: string; onChange: (next: string) => void; snippets: Snippet[] }) {
  const { t } = useT();
  const area = useRef<HTMLTextAreaElement>(null);
  const preview = useFetcher<{ ok: boolean; html?: string }>();
  const bank = useFetcher<{ ok: boolean; intent: string; code?: string; message?: string }>();
  const [showPreview, setShowPreview] = useState(false);
  const [said, setSaid] = useState("");

  const insert = (text: string) => {
    const el = area.current;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const before = value.slice(0, start);
    const joiner = before && !/\s$/.test(before) ? " " : "";
    const next = `${before}${joiner}${text}${value.slice(end)}`;
    onChange(next);
    setSaid(t("grader.bank.inserted"));
    requestAnimationFrame(() => {
      const at = start + joiner.length + text.length;
      el?.focus();
      el?.setSelectionRange(at, at);
    });
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    const n = snippetKey(e.nativeEvent);
    if (n === null) return;
    const snippet = snippets[n - 1];
    if (!snippet) return;
    e.preventDefault();
    insert(snippet.text);
  };

  useEffect(() => {
    if (showPreview) void preview.submit({ intent: "preview", text: value }, { method: "post" });
    // Only when the preview is opened or the text changes while it is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [showPreview, value]);

  useEffect(() => {
    if (bank.state !== "idle" || !bank.data) return;
    setSaid(bank.data.ok ? t(bank.data.intent === "snippet-delete" ? "grader.bank.deleted" : "grader.bank.saved") : (bank.data.message ?? ""));
  }, [bank.state, bank.data, t]);

  const keep = () => {
    const el = area.current;
    const selected = el && el.selectionEnd > el.selectionStart ? value.slice(el.selectionStart, el.selectionEnd) : value;
    if (!selected.trim()) return;
    void bank.submit({ intent: "snippet-add", text: selected.trim() }, { method: "post" });
  };

  return (
    <div className="field feedback-field">
      <div className="feedback-head">
        <label htmlFor="grader-feedback">{t("grader.feedback")}</label>
        <div className="feedback-modes" role="group" aria-label={t("grader.feedback")}>
          <button type="button" className="btn btn-ghost btn-sm" aria-pressed={!showPreview} onClick={() => setShowPreview(false)}>
            {t("grader.write")}
          </button>
          <button type="button" className="btn btn-ghost btn-sm" aria-pressed={showPreview} onClick={() => setShowPreview(true)}>
            {t("grader.preview")}
          </button>
        </div>
      </div>
      <textarea
        ref={area}
        id="grader-feedback"
        rows={6}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        dir="auto"
        aria-describedby="grader-feedback-hint"
        hidden={showPreview}
      />
      {showPreview ? (
        <div className="prose feedback-preview" dir="auto" aria-live="polite" aria-busy={preview.state !== "idle"}>
          {value.trim() === "" ? <p className="muted">{t("grader.previewEmpty")}</p> : <div dangerouslySetInnerHTML={{ __html: preview.data?.html ?? "" }} />}
        </div>
      ) : null}
      <p id="grader-feedback-hint" className="field-hint field-hint-block">
        {t("grader.feedbackHint")} {snippets.length > 0 ? t("grader.bank.keys") : null}
      </p>
      <details className="comment-bank">
        <summary>{t("grader.bank.title", { n: snippets.length })}</summary>
        {snippets.length === 0 ? <p className="muted">{t("grader.bank.empty")}</p> : null}
        <ol className="comment-bank-list" role="list">
          {snippets.map((s, i) => (
            <li key={s._id} className="comment-bank-item">
              {i < 9 ? (
                <kbd className="comment-bank-key" aria-hidden="true">
                  Alt+{i + 1}
                </kbd>
              ) : null}
              <span className="comment-bank-text user-text" dir="auto">
                {s.text}
              </span>
              <span className="comment-bank-actions">
                <button type="button" className="btn btn-outline btn-sm" onClick={() => insert(s.text)}>
                  {t("grader.bank.insert")}
                  <span className="visually-hidden"> {i + 1}</span>
                </button>
                <button type="button" className="btn btn-ghost btn-sm btn-destructive-ghost" onClick={() => void bank.submit({ intent: "snippet-delete", snippetId: s._id }, { method: "post" })}>
                  {t("grader.bank.delete")}
                  <span className="visually-hidden"> {i + 1}</span>
                </button>
              </span>
            </li>
          ))}
        </ol>
        <button type="button" className="btn btn-ghost btn-sm btn-sentence" onClick={keep} disabled={!value.trim() || bank.state !== "idle"}>
          {t("grader.bank.keep")}
        </button>
      </details>
      {/* Said to screen readers; not a second status region beside the grader's own. */}
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
    </div>
  );
}
