/**
 * Titles people typed, on the public pages: each keeps its own direction on an Arabic page (a title such as
 * "Intro to C++" would otherwise read "++Intro to C" there), and a testimonial names its course by title.
 */
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { call, createGroup } from "./factories";
import { db, insertFeedback, unique } from "./helpers";

const html = async (path: string) => (await call(path, { cookie: "lang=ar", headers: { accept: "text/html" } })).text();

describe("a course's title on the public pages", () => {
  it("takes its own direction wherever it is the heading: catalogue card, details page and an outline part", async () => {
    const title = `Intro to C++ ${unique("t").slice(-5)}`;
    const group = await createGroup({ title });
    const part = { id: newId(), groupId: group.id, title: "Pointers & C++", body: "Text", order: 0 };
    await db().insert(s.courseContents).values(part);
    expect(await html("/courses")).toMatch(new RegExp(`<h[23][^>]*class="course-title user-text"[^>]*>${title.replace(/[+]/g, "\\+")}<`));
    expect(await html(`/content/${group.slug}`)).toContain(`<h1 class="page-title user-text">${title}</h1>`);
    const partPage = await html(`/content/${group.slug}/course/${part.id}`);
    expect(partPage).toContain('<h1 class="page-title user-text">Pointers &amp; C++</h1>');
    expect(partPage).toContain(`<span class="part-nav-title" dir="auto">${title}</span>`);
  });

  it("is how a testimonial on the landing page names its course; a course no longer listed is named by its address", async () => {
    const title = `Named course ${unique("n")}`;
    const group = await createGroup({ title });
    const words = unique("words");
    await insertFeedback({ groupSlug: group.slug, userFeedback: `Listed ${words}` });
    await insertFeedback({ groupSlug: "gone-course", userFeedback: `Gone ${words}` });
    const landing = await (await call("/", { headers: { accept: "text/html" } })).text();
    expect(landing).toContain(`<span class="feedback-group" dir="auto">${title}</span>`);
    expect(landing).toContain('<span class="feedback-group" dir="auto">gone course</span>');
  });
});
