/** Validation refusals in words a person reads (the API's 400s and the realtime rooms' error frames). */
/** Zod's own words for a rule a schema gave no message of its own ("Too small: expected number to be >0"). */
const ZOD_DEFAULT = /^(Too small|Too big|Invalid input|Invalid option|Invalid string|Invalid key|Invalid element|Invalid union|Unrecognized key)/;
const KINDS: Record<string, string> = { number: "a number", int: "a whole number", string: "text", boolean: "true or false", array: "a list", object: "an object", date: "a date" };

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  expected?: string;
  values?: unknown[];
  keys?: string[];
}

/**
 * A refusal in words a person reads: the schema's own message when it has one, otherwise a sentence naming the field
 * and the rule ("limit must be 1 or more.") instead of Zod's ("Too small: expected number to be >=1").
 */
export function humanIssue(issue: Issue): string {
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  const field = issue.path.map(String).join(".");
  const it = field || "The request body";
  const n = Number(issue.minimum ?? issue.maximum);
  switch (issue.code) {
    case "too_small":
      if (issue.origin === "string") return n <= 1 ? `${it} cannot be empty.` : `${it} needs at least ${n} characters.`;
      if (issue.origin === "array" || issue.origin === "set") return n <= 1 ? `${it} needs at least one item.` : `${it} needs at least ${n} items.`;
      return issue.inclusive === false ? `${it} must be more than ${n}.` : `${it} must be ${n} or more.`;
    case "too_big":
      if (issue.origin === "string") return `${it} is limited to ${n} characters.`;
      if (issue.origin === "array" || issue.origin === "set") return `${it} takes at most ${n} items.`;
      return issue.inclusive === false ? `${it} must be less than ${n}.` : `${it} must be ${n} or less.`;
    case "invalid_type":
      if (/received undefined/.test(issue.message)) return field ? `${field} is required.` : "Send a JSON object as the body.";
      return `${it} must be ${KINDS[issue.expected ?? ""] ?? `of type ${issue.expected}`}.`;
    case "invalid_value":
      return `${it} must be one of: ${(issue.values ?? []).map(String).join(", ")}.`;
    case "unrecognized_keys":
      return `Unknown field${(issue.keys?.length ?? 0) === 1 ? "" : "s"}: ${(issue.keys ?? []).join(", ")}.`;
    default:
      return field ? `${field} is not valid.` : "The request body is not valid.";
  }
}
