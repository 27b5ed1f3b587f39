import { useRef, useState, type KeyboardEvent, type SelectHTMLAttributes } from "react";

type Props = Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "defaultValue" | "onChange"> & {
  /** The value as saved (the page's data). */
  value: string;
  /** Acts on a chosen value (saves it, or sends the filter's form): `select` is the element, its form included. */
  onCommit: (value: string, select: HTMLSelectElement) => void;
};

/**
 * A picker that acts as soon as a value is chosen (a filter, a status saved at once), without acting on every arrow
 * key: with a closed `<select>`, each Up or Down changes its value, so a keyboard user on their way from "present" to
 * "absent" would save "late" first (WCAG 3.2.2). A choice made with a pointer or a touch acts at once, as before; one
 * made with the keys acts on Enter or when the focus leaves the picker, and Escape puts the saved value back.
 */
export function DeliberateSelect({ value, onCommit, onKeyDown, onPointerDown, onBlur, children, ...rest }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  const byKeys = useRef(false);
  const commit = (chosen: string, select: HTMLSelectElement) => {
    setDraft(null);
    if (chosen !== value) onCommit(chosen, select);
  };
  const keyDown = (e: KeyboardEvent<HTMLSelectElement>) => {
    onKeyDown?.(e);
    if (e.key === "Enter" && draft !== null) {
      e.preventDefault();
      commit(draft, e.currentTarget);
    } else if (e.key === "Escape" && draft !== null) {
      e.stopPropagation();
      setDraft(null);
    } else if (e.key !== "Tab" && e.key !== "Shift") {
      byKeys.current = true;
    }
  };
  return (
    <select
      {...rest}
      value={draft ?? value}
      onKeyDown={keyDown}
      onPointerDown={(e) => {
        byKeys.current = false;
        onPointerDown?.(e);
      }}
      onChange={(e) => {
        if (byKeys.current) setDraft(e.target.value);
        else commit(e.target.value, e.currentTarget);
      }}
      onBlur={(e) => {
        byKeys.current = false;
        if (draft !== null) commit(draft, e.currentTarget);
        onBlur?.(e);
      }}
    >
      {children}
    </select>
  );
}
