/**
 * The code editor: CodeMirror 6 with JavaScript highlighting, indentation, bracket matching and closing, undo and
 * line numbers. This module is loaded only by pages that edit code (React.lazy in code-field.tsx), so no other
 * page pays for it. The editor is always left to right, also on an Arabic page. Tab indents; Esc then Tab leaves the
 * editor (CodeMirror's tab-focus escape), which the field's hint tells keyboard users.
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { javascript } from "@codemirror/lang-javascript";
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view";
import { useEffect, useRef } from "react";

export interface CodeEditorProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  labelledBy: string;
  describedBy?: string;
  readOnly?: boolean;
  invalid?: boolean;
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

export default function CodeEditor({ id, value, onChange, labelledBy, describedBy, readOnly = false, invalid = false }: CodeEditorProps) {
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
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
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
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
          theme,
        ],
      }),
    });
    view.current = editor;
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
