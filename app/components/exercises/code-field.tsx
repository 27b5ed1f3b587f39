import { lazy, Suspense, useRef, type MutableRefObject } from "react";
import { useHydrated } from "~/hooks/use-hydrated";
import { useIsoLayoutEffect } from "~/hooks/use-iso-layout-effect";
import type { CodeEditorProps, Handover } from "./code-editor";

/**
 * CodeMirror and its language packs, fetched only when a page shows a code field, and only in the browser: the
 * server renders the textarea, so the Worker's bundle leaves the editor out.
 */
const CodeEditor = import.meta.env.SSR ? null : lazy(() => import("./code-editor"));

type PlainProps = Omit<CodeEditorProps, "handover"> & { name?: string; rows: number; handover: MutableRefObject<Handover> };

/**
 * The plain textarea the field is until the editor has loaded. It is replaced twice (at hydration, and when the
 * editor arrives), each time while a student may be typing in it: whoever has the focus when it goes leaves their
 * caret in `handover` (read before React removes the element), and the next field takes it, so the typing goes on
 * in the new one instead of into nothing.
 */
function PlainCode({ name, rows, handover, ...props }: PlainProps) {
  const field = useRef<HTMLTextAreaElement>(null);
  useIsoLayoutEffect(() => {
    const el = field.current;
    if (!el) return;
    const taken = handover.current;
    if (taken) {
      handover.current = null;
      el.focus();
      el.setSelectionRange(taken.start, taken.end);
    }
    return () => {
      if (document.activeElement === el) handover.current = { start: el.selectionStart, end: el.selectionEnd };
    };
  }, []);
  return (
    <textarea
      ref={field}
      id={props.id}
      name={name}
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
}

/**
 * A labelled code field. Until the page is interactive (and without JavaScript) it is a plain left-to-right
 * textarea that forms submit as `name`; once hydrated it becomes the CodeMirror editor with a hidden input carrying
 * the same value, so a form posts the same thing either way.
 */
export function CodeField({ name, rows = 12, ...props }: Omit<CodeEditorProps, "handover"> & { name?: string; rows?: number }) {
  const hydrated = useHydrated();
  const handover = useRef<Handover>(null);
  if (!hydrated || !CodeEditor) return <PlainCode {...props} name={name} rows={rows} handover={handover} />;
  return (
    <>
      <Suspense fallback={<PlainCode {...props} rows={rows} handover={handover} />}>
        <CodeEditor {...props} handover={handover} />
      </Suspense>
      {name ? <input type="hidden" name={name} value={props.value} /> : null}
    </>
  );
}
