import { desc, eq } from "drizzle-orm";
import { feedback } from "../../db/schema";
import type { ServiceContext } from "../context";

/** A feedback record as the public list shows it: never the author's e-mail address. */
export interface PublicFeedbackDto {
  _id: string;
  name: string;
  groupSlug: string;
  userFeedback: string;
  rating: number;
}

/** Visible feedback, newest first. */
export async function listPublicFeedback(ctx: ServiceContext): Promise<PublicFeedbackDto[]> {
  return ctx.db
    .select({
      _id: feedback.id,
      name: feedback.name,
      groupSlug: feedback.groupSlug,
      userFeedback: feedback.userFeedback,
      rating: feedback.rating,
    })
    .from(feedback)
    .where(eq(feedback.hidden, false))
    .orderBy(desc(feedback.createdAt), desc(feedback.id));
}
