/**
 * Titles in Arabic make slugs in Arabic (`الخطافات-بالتفصيل`). A URL carries only ASCII, so every redirect the app
 * builds from a slug must be percent-encoded: a quiz whose lecture and title were Arabic could not be started (the
 * start answered a redirect with raw Arabic in its Location, and the page showed the 500 screen while the attempt's
 * clock already ran).
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addMember, call, createGroup, createUser, ORIGIN, signIn } from "./factories";
import { randomIp } from "./helpers";

const ASCII_ONLY = /^[\x21-\x7e]+$/;

async function arabicQuiz() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const student = await signIn(await createUser());
  await addMember(student.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: "الخطافات بالتفصيل", published: true }, token: teacher.accessToken })).json()) as { slug: string };
  const res = await call("/api/quizzes", {
    body: { lectureId: lecture.slug, title: "اختبار الخطافات", durationMinutes: 10, opensAt: null, closesAt: null, maxAttempts: 2, showAnswers: "after-submit", published: true, questions: [{ text: "صح؟", type: "true-false", correct: 0, points: 1 }] },
    token: teacher.accessToken,
  });
  expect(res.status).toBe(201);
  const quiz = (await res.json()) as { slug: string };
  return { group, student, lecture, quiz };
}

describe("slugs in Arabic", () => {
  it("starts a quiz whose lecture and title are Arabic: the redirect is percent-encoded and leads to the questions", async () => {
    const w = await arabicQuiz();
    expect(w.lecture.slug).toBe("الخطافات-بالتفصيل");
    const intro = `/course/${encodeURIComponent(w.group.slug)}/lecture/${encodeURIComponent(w.lecture.slug)}/quiz/${encodeURIComponent(w.quiz.slug)}`;
    const start = await SELF.fetch(`${ORIGIN}${intro}`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", accept: "text/html", cookie: w.student.cookie, "cf-connecting-ip": randomIp() },
      body: new URLSearchParams({ intent: "start" }).toString(),
      redirect: "manual",
    });
    expect(start.status).toBe(302);
    const location = start.headers.get("location")!;
    expect(location).toMatch(ASCII_ONLY);
    expect(location).toBe(`${intro}/questions`);
    expect(decodeURIComponent(location)).toContain("/lecture/الخطافات-بالتفصيل/quiz/اختبار-الخطافات/questions");
    const questions = await SELF.fetch(`${ORIGIN}${location}`, { headers: { cookie: w.student.cookie, accept: "text/html" }, redirect: "manual" });
    expect(questions.status).toBe(200);
    expect(await questions.text()).toContain("صح؟");
  });

  it("keeps a word whole when it carries harakat or a tatweel, keeps other scripts' vowel signs, and never cuts a character in half at the 60th", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const make = async (title: string) => (await (await call(`/api/lectures/group/${group.slug}`, { body: { title, published: true }, token: teacher.accessToken })).json()) as { slug: string };
    expect((await make("اختبارٌ مُشَكَّل")).slug).toBe("اختبار-مشكل");
    // The tatweel only stretches a word; other scripts keep their vowel signs, and their pages open by that slug.
    expect((await make("عـــربي")).slug).toBe("عربي");
    expect((await make("ـــ")).slug).toBe("item");
    const hindi = await make("हिन्दी पाठ");
    expect(hindi.slug).toBe("हिन्दी-पाठ");
    expect((await call(`/api/lectures/${encodeURIComponent(hindi.slug)}`, { token: teacher.accessToken })).status).toBe(200);
    // Characters outside the Basic Multilingual Plane are two UTF-16 units each: "a" and 40 of them are 41 characters
    // (81 units), kept whole; "a" and 70 are cut at 60 characters.
    const long = await make(`a${"𠀀".repeat(40)}`);
    expect(long.slug).toBe(`a${"𠀀".repeat(40)}`);
    expect((await make(`a${"𠀀".repeat(70)}`)).slug).toBe(`a${"𠀀".repeat(59)}`);
    // Its page opens by the slug (it answered 404 when the slug ended in half a character).
    expect((await call(`/api/lectures/${encodeURIComponent(long.slug)}`, { token: teacher.accessToken })).status).toBe(200);
  });
});

