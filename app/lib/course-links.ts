import type { MessageKey } from "~/i18n/en";
import type { Params } from "~/i18n/translate";

/**
 * The "Ask About This Course" chat link: WhatsApp's click-to-chat with a prefilled message.
 * The message is Arabic in both languages (spec §2), so it is read from the `courses.askMessage` key
 * that both dictionaries keep in Arabic.
 */
export function askAboutCourseHref(whatsappNumber: string, title: string, t: (key: MessageKey, params?: Params) => string): string {
  const text = t("courses.askMessage", { title });
  return `https://wa.me/${encodeURIComponent(whatsappNumber)}?text=${encodeURIComponent(text)}`;
}

/** The catalogue shows the first 10 characters of start_date (spec §9), or null when there is none. */
export function startDateLabel(startDate: string | null | undefined): string | null {
  return typeof startDate === "string" && startDate.length > 0 ? startDate.slice(0, 10) : null;
}
