import { lazy, Suspense } from "react";
import { useHydrated } from "~/hooks/use-hydrated";
import type { CodeEditorProps } from "./code-editor";

/**
 * CodeMirror and its language packs, fetched only when a page shows a code field, and only in the browser: the
 * server renders the textarea, so the Worker's bundle leaves the editor out.
 */
const CodeEditor = import.meta.env.SSR ? null : lazy(() => import("./code-editor"));

/**
 * A labelled code field. Until the page is interactive (and without JavaScript) it is a plain left-to-right
 * textarea that forms submit as `name`; once hydrated it becomes the CodeMirror editor with a hidden input carrying
 * the same value, so a form posts the same thing either way.
 */
export function CodeField({ name, rows = 12, ...props }: CodeEditorProps & { name?: string; rows?: number }) {
  const hydrated = useHydrated();
  const plain = (fieldName?: string) => (
    <textarea
      id={props.id}
      name={fieldName}
      className="code-textarea"
      dir="ltr"
      rows={rows}
      spellCheck={false}
      autoCapitalize="off"
      autoCorrect="off"
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      readOnly={props.readOnly}
      aria-labelledby={props.labelledBy}
      aria-describedby={props.describedBy}
      aria-invalid={props.invalid || undefined}
    />
  );
  if (!hydrated || !CodeEditor) return plain(name);
  return (
    <>
      <Suspense fallback={plain()}>
        <CodeEditor {...props} />
      </Suspense>
      {name ? <input type="hidden" name={name} value={props.value} /> : null}
    </>
  );
}
