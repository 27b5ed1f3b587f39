/**
 * The code editor: CodeMirror 6 with JavaScript highlighting, indentation, bracket matching and closing, undo and
 * line numbers. This module is loaded only by pages that edit code (React.lazy in code-field.tsx), so no other
 * page pays for it. The editor is always left to right, also on an Arabic page. Tab indents; Esc then Tab leaves the
 * editor (CodeMirror's tab-focus escape), which the field's hint tells keyboard users.
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { javascript } from "@codemirror/lang-javascript";
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { useEffect, useRef, type MutableRefObject } from "react";

/** Where the caret was in the plain textarea this editor replaces, if it had the focus (code-field.tsx). */
export type Handover = { start: number; end: number } | null;

export interface CodeEditorProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  labelledBy: string;
  describedBy?: string;
  readOnly?: boolean;
  invalid?: boolean;
  /** The caret of the textarea shown while this editor loaded: taken over with the focus, so typing goes on here. */
  handover?: MutableRefObject<Handover>;
}

const theme = EditorView.theme({
  "&": { fontSize: "0.9rem" },
  ".cm-content": {
    fontFamily: "var(--font-mono)",
    minHeight: "var(--code-min-height, 12rem)",
  },
  ".cm-gutters": { fontFamily: "var(--font-mono)" },
  ".cm-scroller": { overflow: "auto", maxHeight: "32rem" },
});

/**
 * CodeMirror's default colours, darkened where they fall below WCAG AA (4.5:1) on white and on the active line's tint:
 * regular expressions and escapes (#e40, 3.8:1), type names (#085) and invalid code (#f00).
 */
const highlight = HighlightStyle.define([
  { tag: tags.meta, color: "#404740" },
  { tag: tags.link, textDecoration: "underline" },
  { tag: tags.heading, textDecoration: "underline", fontWeight: "bold" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strong, fontWeight: "bold" },
  { tag: tags.strikethrough, textDecoration: "line-through" },
  { tag: tags.keyword, color: "#708" },
  { tag: [tags.atom, tags.bool, tags.url, tags.contentSeparator, tags.labelName], color: "#219" },
  { tag: [tags.literal, tags.inserted], color: "#164" },
  { tag: [tags.string, tags.deleted], color: "#a11" },
  { tag: [tags.regexp, tags.escape, tags.special(tags.string)], color: "#a63600" },
  { tag: tags.definition(tags.variableName), color: "#00f" },
  { tag: tags.local(tags.variableName), color: "#30a" },
  { tag: [tags.typeName, tags.namespace], color: "#07704a" },
  { tag: tags.className, color: "#167" },
  { tag: [tags.special(tags.variableName), tags.macroName], color: "#256" },
  { tag: tags.definition(tags.propertyName), color: "#00c" },
  { tag: tags.comment, color: "#940" },
  { tag: tags.invalid, color: "#c00" },
]);

export default function CodeEditor({ id, value, onChange, labelledBy, describedBy, readOnly = false, invalid = false, handover }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          drawSelection(),
          history(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          autocompletion({ activateOnTyping: false }),
          syntaxHighlighting(highlight),
          javascript(),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, indentWithTab]),
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({
            id,
            "aria-labelledby": labelledBy,
            ...(describedBy ? { "aria-describedby": describedBy } : {}),
            "aria-multiline": "true",
            spellcheck: "false",
            autocapitalize: "off",
            autocorrect: "off",
            translate: "no",
            // Explicitly in the tab order: a read-only view is not editable (so not focusable by itself), and checkers
            // (axe's scrollable-region-focusable) do not count contenteditable as focusable content of the scroller.
            tabindex: "0",
            ...(readOnly ? { "aria-readonly": "true" } : {}),
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
          theme,
        ],
      }),
    });
    view.current = editor;
    const taken = handover?.current;
    if (taken && handover) {
      handover.current = null;
      const length = editor.state.doc.length;
      editor.dispatch({ selection: { anchor: Math.min(taken.start, length), head: Math.min(taken.end, length) } });
      editor.focus();
    }
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; outside changes of `value` are applied below without rebuilding it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, readOnly]);

  useEffect(() => {
    const content = view.current?.contentDOM;
    if (!content) return;
    if (invalid) content.setAttribute("aria-invalid", "true");
    else content.removeAttribute("aria-invalid");
  }, [invalid, id, readOnly]);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({
        changes: { from: 0, to: editor.state.doc.length, insert: value },
      });
    }
  }, [value]);

  return <div ref={host} className="code-editor" dir="ltr" data-invalid={invalid || undefined} />;
}
