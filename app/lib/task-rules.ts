/**
 * Tasks' limits, states and link reading that need no validation library (task-schemas.ts re-exports them): the
 * task page and the grader import these, so they do not download zod for them.
 */
export const TASK_LIMITS = { title: 160, body: 50_000, maxScore: 1000, link: 2_000, notes: 2_000, feedback: 5_000 } as const;

/** A submission's one clear state. */
export const SUBMISSION_STATES = ["not-submitted", "submitted", "late", "graded", "resubmission-requested"] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];

/** "owner/repo" for a GitHub repository link, else null (shown instead of the raw link). */
export function githubRepo(link: string): string | null {
  try {
    const u = new URL(link);
    if (u.hostname !== "github.com" && u.hostname !== "www.github.com") return null;
    const [owner, repo] = u.pathname.split("/").filter(Boolean);
    return owner && repo ? `${owner}/${repo.replace(/\.git$/, "")}` : null;
  } catch {
    return null;
  }
}

/** The comment bank (issue 21): a staff member keeps at most this many snippets, each at most this long. */
export const COMMENT_BANK_LIMITS = { snippets: 50, text: 2_000 } as const;
