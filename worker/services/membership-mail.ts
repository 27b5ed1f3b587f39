/** The e-mail a student gets when staff decide their join request (PRODUCT.md §3 "E-mail requests"). */
import type { MembershipDecisionInput } from "../../app/lib/schemas";
import { escapeHtml, type OutgoingMail } from "./mail";

type Decision = MembershipDecisionInput["decision"];

const SUBJECT: Record<Decision, (title: string) => string> = {
  approved: (t) => `Your request to join "${t}" was approved`,
  special: (t) => `Your request to join "${t}" was approved on special terms`,
  rejected: (t) => `Your request to join "${t}" was not approved`,
};

const BODY: Record<Decision, (title: string) => string> = {
  approved: (t) => `Good news: you are now a member of "${t}". Your course is waiting for you in My Courses.`,
  special: (t) => `Good news: you are now a member of "${t}", on special terms (such as a scholarship seat). You have the same access as every member; your course is waiting for you in My Courses.`,
  rejected: (t) => `Your request to join "${t}" was not approved this time. You can browse the other courses and ask to join one of them, or ask again later.`,
};

/** Subject, text and HTML for one decision, with an absolute link to My Courses or the catalogue. */
export function decisionMail(opts: { name: string; groupTitle: string; decision: Decision; origin: string }): Omit<OutgoingMail, "to"> {
  const { name, groupTitle, decision, origin } = opts;
  const link = `${origin}${decision === "rejected" ? "/courses" : "/my-courses"}`;
  const linkLabel = decision === "rejected" ? "Browse courses" : "Open My Courses";
  const lines = [`Hello ${name},`, BODY[decision](groupTitle)];
  return {
    subject: SUBJECT[decision](groupTitle),
    text: [...lines, `${linkLabel}: ${link}`].join("\n\n"),
    html:
      lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("") +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(linkLabel)}</a></p>`,
  };
}
