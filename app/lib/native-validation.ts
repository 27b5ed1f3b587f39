/**
 * The browser's own form checks (required, type, length, range) speak the browser's language, not the page's: an
 * Arabic page in an English browser said "Please fill out this field." This gives each refused field the message
 * in the page's language (`html[lang]`), from the dictionary the page already loaded. The message is set while the
 * browser reports the field (its `invalid` event) and taken off before the next check (a click on a submit button,
 * typing, a change), so the browser's own rules stay the ones that decide. Fields with a message of their own
 * (`data-own-validity`) are left alone.
 */
import { isLang } from "~/i18n/config";
import type { MessageKey } from "~/i18n/en";
import { messagesFor } from "~/i18n/store";
import { format } from "~/i18n/translate";

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const isField = (el: EventTarget | null): el is Field => el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;

/** Fields whose message this set, so that only those are cleared. */
const ours = new WeakSet<Field>();

function clear(field: Field) {
  if (!ours.has(field)) return;
  ours.delete(field);
  field.setCustomValidity("");
}

/** The message for the field's first failed rule, and its numbers, or null when the browser's rules pass. */
function refusal(field: Field): { key: MessageKey; params?: Record<string, string | number> } | null {
  const v = field.validity;
  const type = field instanceof HTMLInputElement ? field.type : field instanceof HTMLSelectElement ? "select" : "textarea";
  if (v.valueMissing) {
    if (type === "checkbox") return { key: "validity.checkbox" };
    if (type === "radio" || type === "select") return { key: "validity.choose" };
    if (type === "file") return { key: "validity.file" };
    return { key: "validity.required" };
  }
  if (v.badInput) return { key: type === "number" ? "validity.number" : "validity.badInput" };
  if (v.typeMismatch) return { key: type === "email" ? "validity.email" : type === "url" ? "validity.url" : "validity.badInput" };
  if (v.tooShort) return { key: "validity.tooShort", params: { min: (field as HTMLInputElement).minLength } };
  if (v.tooLong) return { key: "validity.tooLong", params: { max: (field as HTMLInputElement).maxLength } };
  if (v.rangeUnderflow) return { key: "validity.min", params: { min: (field as HTMLInputElement).min } };
  if (v.rangeOverflow) return { key: "validity.max", params: { max: (field as HTMLInputElement).max } };
  if (v.stepMismatch) return { key: "validity.step" };
  if (v.patternMismatch) return { key: "validity.pattern" };
  return null;
}

export function localizeNativeValidation(doc: Document): void {
  doc.addEventListener(
    "invalid",
    (event) => {
      const field = event.target;
      if (!isField(field) || field.dataset.ownValidity !== undefined) return;
      clear(field);
      const lang = doc.documentElement.lang;
      const messages = isLang(lang) ? messagesFor(lang) : undefined;
      const why = messages ? refusal(field) : null;
      if (!messages || !why) return;
      field.setCustomValidity(format(messages, why.key, why.params));
      ours.add(field);
    },
    true,
  );
  const clearTarget = (event: Event) => {
    if (isField(event.target)) clear(event.target);
  };
  doc.addEventListener("input", clearTarget, true);
  doc.addEventListener("change", clearTarget, true);
  // Before a form is checked again, its fields carry only the browser's own rules.
  doc.addEventListener(
    "click",
    (event) => {
      const button = (event.target as Element | null)?.closest?.("button, input[type=submit]");
      const form = button && "form" in button ? (button as HTMLButtonElement).form : null;
      if (!form) return;
      for (const el of Array.from(form.elements)) if (isField(el)) clear(el);
    },
    true,
  );
}
