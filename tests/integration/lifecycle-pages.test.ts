/**
 * A cohort's life through the pages (issue 22): the Cohort tab's loader and intents, the course home's pinned
 * announcements and certificate, the "Publish later" and "Copy to a group" routes, and the public certificate page,
 * each for who may and refused to who may not.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newCertificateCode } from "../../worker/services/certificates";
import { newId } from "../../worker/services/ids";
import { addMember, call, createGroup, createUser, signIn, type SignedIn } from "./factories";
import { db, unique } from "./helpers";

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};
/** A page action as the browser's Remix sends it (single fetch: `{path}.data`). */
const action = async (who: SignedIn, path: string, fields: Record<string, string>) => {
  const res = await call(`${path}.data`, { method: "POST", form: form(fields), cookie: who.cookie });
  return { status: res.status, text: await res.text() };
};
const page = async (who: SignedIn | null, path: string) => {
  const res = await call(path, { cookie: who?.cookie, headers: { accept: "text/html" } });
  return { status: res.status, text: await res.text() };
};

async function world() {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const other = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id, title: "Pages group" });
  const student = await signIn(await createUser({ name: "Hala Student" }));
  await addMember(student.user, group);
  const lecture = { id: newId(), groupId: group.id, slug: unique("plec"), title: "Week one", published: false, startsAt: new Date(Date.now() + 86_400_000) };
  // The course started yesterday (certificates wait for its first day); next week's lecture is still a draft.
  const held = { id: newId(), groupId: group.id, slug: unique("plec"), title: "Welcome", published: true, startsAt: new Date(Date.now() - 86_400_000) };
  await db().insert(s.lectures).values([held, lecture]);
  return { teacher, other, group, student, lecture, cohort: `/instructor/group/${group.slug}/cohort` };
}

describe("the Cohort tab", () => {
  it("shows its three sections to the group's instructor only", async () => {
    const w = await world();
    const own = await page(w.teacher, w.cohort);
    expect(own.status).toBe(200);
    for (const id of ["cohort-announce-title", "cohort-certs-title", "cohort-copy-title"]) expect(own.text).toContain(`id="${id}"`);
    expect(own.text).toContain("Hala Student");
    expect((await page(w.other, w.cohort)).status).toBe(403);
    expect((await page(w.student, w.cohort)).text).not.toContain('id="cohort-announce-title"');
    const admin = await signIn(await createUser({ role: "admin" }));
    expect((await page(admin, `/dashboard/admin/group/${w.group.slug}/cohort`)).status).toBe(200);
  });

  it("offers the copy's time zones by city and offset from UTC, in the reader's language, the group's own first", async () => {
    const w = await world();
    await db().update(s.groups).set({ timeZone: "Asia/Kolkata" }).where(eq(s.groups.id, w.group.id));
    const options = (html: string) => [...html.slice(html.indexOf('id="copy-zone"')).split("</select>")[0]!.matchAll(/<option[^>]*value="([^"]+)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]!.replace(/[\u200e\u200f\u2066-\u2069]/g, "")]);
    const english = options((await page(w.teacher, w.cohort)).text);
    // Riyadh keeps UTC+3 all year; India UTC+5:30 (a zone off the list keeps its own name).
    expect(english[0]).toEqual(["Asia/Kolkata", "Asia/Kolkata (UTC+05:30)"]);
    expect(english).toContainEqual(["Asia/Riyadh", "Riyadh (UTC+03:00)"]);
    expect(english).toContainEqual(["UTC", "Coordinated Universal Time (UTC+00:00)"]);
    const arabic = options(await (await call(w.cohort, { cookie: `${w.teacher.cookie}; lang=ar`, headers: { accept: "text/html" } })).text());
    expect(arabic).toContainEqual(["Asia/Riyadh", "الرياض (UTC+03:00)"]);
    expect(arabic).toContainEqual(["Africa/Casablanca", expect.stringMatching(/^الدار البيضاء \(UTC\+0[01]:00\)$/)]);
  });

  it("announces, sets the rule, issues and revokes, and copies, through its intents; another instructor's are refused", async () => {
    const w = await world();
    expect((await action(w.other, w.cohort, { intent: "announce", title: "Not mine", body: "x" })).status).toBe(403);
    expect((await action(w.teacher, w.cohort, { intent: "announce", title: "Welcome", body: "Hello **all**", expiresAt: "" })).status).toBe(200);
    const [a] = await db().select().from(s.announcements).where(eq(s.announcements.groupId, w.group.id));
    expect(a).toMatchObject({ title: "Welcome", bodyHtml: "<p>Hello <strong>all</strong></p>" });
    expect((await action(w.teacher, w.cohort, { intent: "rule", overall: "70", attendance: "" })).status).toBe(200);
    expect((await db().select().from(s.groups).where(eq(s.groups.id, w.group.id)))[0]).toMatchObject({ completionOverall: 70, completionAttendance: null });
    expect((await action(w.teacher, w.cohort, { intent: "rule", overall: "170", attendance: "" })).status).toBe(400);
    expect((await action(w.teacher, w.cohort, { intent: "issue-one", userId: w.student.user.id })).status).toBe(200);
    const [cert] = await db().select().from(s.certificates).where(eq(s.certificates.userId, w.student.user.id));
    expect(cert).toMatchObject({ groupId: w.group.id, recipientName: "Hala Student" });
    expect((await action(w.teacher, w.cohort, { intent: "revoke", certificateId: cert!.id, reason: "" })).status).toBe(400);
    expect((await action(w.teacher, w.cohort, { intent: "revoke", certificateId: cert!.id, reason: "Wrong person" })).status).toBe(200);
    expect((await db().select().from(s.certificates).where(eq(s.certificates.id, cert!.id)))[0]!.revokedReason).toBe("Wrong person");
    expect((await action(w.teacher, w.cohort, { intent: "copy", title: "Pages group, again", startDate: "2027-13-01", timeZone: "Africa/Cairo" })).status).toBe(400);
    expect((await action(w.teacher, w.cohort, { intent: "copy", title: "Pages group, again", startDate: "2027-03-01", timeZone: "Africa/Cairo" })).status).toBe(200);
    const [copy] = await db().select().from(s.groups).where(eq(s.groups.title, "Pages group, again"));
    expect(copy).toMatchObject({ status: "draft", instructorId: w.teacher.user.id });
    expect((await db().select().from(s.lectures).where(eq(s.lectures.groupId, copy!.id))).map((l) => l.title)).toEqual(["Welcome", "Week one"]);
    expect((await action(w.teacher, w.cohort, { intent: "nonsense" })).status).toBe(400);
  });

  it("publishes a draft into the catalogue, and takes a group without members back out; archiving stays the admins'", async () => {
    const w = await world();
    const statusOf = async (id: string) => (await db().select({ status: s.groups.status }).from(s.groups).where(eq(s.groups.id, id)))[0]!.status;
    // The next cohort's copy starts as a draft, with no members.
    expect((await action(w.teacher, w.cohort, { intent: "copy", title: "Next term", startDate: "2027-03-01", timeZone: "Africa/Cairo" })).status).toBe(200);
    const [copy] = await db().select().from(s.groups).where(and(eq(s.groups.title, "Next term"), eq(s.groups.instructorId, w.teacher.user.id)));
    const copyTab = `/instructor/group/${copy!.slug}/cohort`;
    const draftTab = await page(w.teacher, copyTab);
    expect(draftTab.text).toContain('id="publishing"');
    expect(draftTab.text).toContain("Publish to the catalogue");
    expect(draftTab.text).toContain(`href="/content/${copy!.slug}"`);

    // Nobody else moves it: another instructor (to whom a draft is as unknown as no group: 404), the student, an
    // attempt to archive or a status that is no status.
    expect((await action(w.other, copyTab, { intent: "publishing", status: "published" })).status).toBe(404);
    expect((await action(w.student, copyTab, { intent: "publishing", status: "published" })).status).toBe(403);
    expect((await action(w.teacher, copyTab, { intent: "publishing", status: "archived" })).status).toBe(403);
    expect((await action(w.teacher, copyTab, { intent: "publishing", status: "" })).status).toBe(400);
    expect(await statusOf(copy!.id)).toBe("draft");

    expect((await action(w.teacher, copyTab, { intent: "publishing", status: "published" })).status).toBe(200);
    expect(await statusOf(copy!.id)).toBe("published");
    expect((await page(null, "/courses")).text).toContain("Next term");
    // No members yet: it may go back to draft, asked first.
    const publishedTab = await page(w.teacher, copyTab);
    expect(publishedTab.text).toContain("Back to draft");
    expect((await action(w.teacher, copyTab, { intent: "publishing", status: "draft" })).status).toBe(200);
    expect(await statusOf(copy!.id)).toBe("draft");
    expect((await page(null, "/courses")).text).not.toContain("Next term");

    // A published group with a member is not offered the way back (its member could no longer open the course).
    const withMember = await page(w.teacher, w.cohort);
    expect(withMember.text).toContain("It has 1 member, so it stays published");
    expect(withMember.text).not.toContain("Back to draft");
    // Nor is it taken when asked by hand: its member would no longer find the course.
    expect((await action(w.teacher, w.cohort, { intent: "publishing", status: "draft" })).status).toBe(409);
    expect(await statusOf(w.group.id)).toBe("published");
    const arabic = await (await call(w.cohort, { cookie: `${w.teacher.cookie}; lang=ar`, headers: { accept: "text/html" } })).text();
    expect(arabic).toContain("له عضو واحد، لذا يبقى منشورًا");

    // Archived by an admin: the instructor is told who can bring it back, and has no button for it.
    await db().update(s.groups).set({ status: "archived" }).where(eq(s.groups.id, copy!.id));
    const archived = await page(w.teacher, copyTab);
    expect(archived.text).toContain("Only an admin can bring it back.");
    expect(archived.text).not.toContain("Publish to the catalogue");
    expect((await action(w.teacher, copyTab, { intent: "publishing", status: "published" })).status).toBe(403);
    expect(await statusOf(copy!.id)).toBe("archived");
  });

  it("lets an admin end a cohort from its Cohort tab, asked first, and bring it back; the instructor's tab offers neither", async () => {
    const w = await world();
    const admin = await signIn(await createUser({ role: "admin" }));
    const adminTab = `/dashboard/admin/group/${w.group.slug}/cohort`;
    const statusOf = async () => (await db().select({ status: s.groups.status }).from(s.groups).where(eq(s.groups.id, w.group.id)))[0]!.status;
    // Published, with a member: the admin is offered the end of the cohort, the instructor is told who ends it.
    const published = await page(admin, adminTab);
    expect(published.text).toContain("It has 1 member, so it stays published until you archive it when the cohort ends.");
    expect(published.text).toContain(">Archive the course<");
    const teachers = await page(w.teacher, w.cohort);
    expect(teachers.text).toContain("an admin archives it when the cohort ends");
    expect(teachers.text).not.toContain("Archive the course");
    expect((await action(w.teacher, w.cohort, { intent: "publishing", status: "archived" })).status).toBe(403);
    expect(await statusOf()).toBe("published");

    expect((await action(admin, adminTab, { intent: "publishing", status: "archived" })).status).toBe(200);
    expect(await statusOf()).toBe("archived");
    expect((await page(null, "/courses")).text).not.toContain(`/content/${w.group.slug}"`);
    const archived = await page(admin, adminTab);
    expect(archived.text).toContain("This course is archived: the catalogue no longer lists it");
    expect(archived.text).toContain(">Bring it back<");
    expect(archived.text).not.toContain(">Archive the course<");
    const arabic = await (await call(adminTab, { cookie: `${admin.cookie}; lang=ar`, headers: { accept: "text/html" } })).text();
    expect(arabic).toContain(">أعِده إلى القائمة<");
    expect((await page(w.teacher, w.cohort)).text).not.toContain(">Bring it back<");

    expect((await action(admin, adminTab, { intent: "publishing", status: "published" })).status).toBe(200);
    expect(await statusOf()).toBe("published");
    expect((await page(null, "/courses")).text).toContain(`/content/${w.group.slug}"`);
  });
});

describe("the course home", () => {
  it("pins the group's announcements for a member until dismissed, and shows the graduate's certificate with its language", async () => {
    const w = await world();
    await db().insert(s.announcements).values({ id: newId(), groupId: w.group.id, authorId: w.teacher.user.id, title: "Bring laptops", body: "x", bodyHtml: "<p>x</p>" });
    const home = `/course/${w.group.slug}`;
    const before = await page(w.student, home);
    expect(before.text).toContain("Bring laptops");
    const [a] = await db().select().from(s.announcements).where(eq(s.announcements.groupId, w.group.id));
    expect((await action(w.student, home, { intent: "dismiss-announcement", announcementId: a!.id })).status).toBe(200);
    expect((await page(w.student, home)).text).not.toContain("Bring laptops");
    // A stranger cannot dismiss it for themselves (not a member).
    const stranger = await signIn(await createUser());
    expect((await action(stranger, home, { intent: "dismiss-announcement", announcementId: a!.id })).status).toBe(403);

    const code = newCertificateCode();
    const certId = newId();
    await db().insert(s.certificates).values({ id: certId, code, groupId: w.group.id, userId: w.student.user.id, recipientName: "Hala Student", courseTitle: "Pages group", issuedAt: new Date() });
    const withCert = await page(w.student, home);
    expect(withCert.text).toContain(`href="/certificates/${code}"`);
    expect((await action(w.student, home, { intent: "certificate-language", certificateId: certId, language: "ar" })).status).toBe(200);
    expect((await db().select().from(s.certificates).where(eq(s.certificates.id, certId)))[0]!.language).toBe("ar");
    expect((await action(w.student, home, { intent: "certificate-language", certificateId: certId, language: "de" })).status).toBe(400);
  });
});

describe("the lecture page", () => {
  it("lists a scheduled task to the group's staff only, not to a member whose role is instructor elsewhere", async () => {
    const w = await world();
    await db().update(s.lectures).set({ published: true }).where(eq(s.lectures.id, w.lecture.id));
    await db().insert(s.tasks).values({ id: newId(), lectureId: w.lecture.id, slug: unique("later"), title: "Hidden until Friday", publishAt: new Date(Date.now() + 86_400_000) });
    await addMember(w.other.user, w.group);
    const path = `/course/${w.group.slug}/lecture/${w.lecture.slug}`;
    expect((await page(w.teacher, path)).text).toContain("Hidden until Friday");
    expect((await page(w.student, path)).text).not.toContain("Hidden until Friday");
    const asMember = await page(w.other, path);
    expect(asMember.status).toBe(200);
    expect(asMember.text).not.toContain("Hidden until Friday");
  });
});

describe("the certificate page", () => {
  it("is public, in the certificate's language, says when it is revoked, and is a 404 for unknown or malformed codes", async () => {
    const w = await world();
    const code = newCertificateCode();
    await db().insert(s.certificates).values({ id: newId(), code, groupId: w.group.id, userId: w.student.user.id, recipientName: "Hala Student", courseTitle: "Pages group", instructorName: "Mona", language: "ar", issuedAt: new Date() });
    const shown = await page(null, `/certificates/${code}`);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('lang="ar" dir="rtl"');
    expect(shown.text).toContain("شهادة إتمام");
    expect(shown.text).toContain("Hala Student");
    // Its address in the QR code and the LinkedIn link, and the signed statement beside it.
    expect(shown.text).toContain(`certId=${code}`);
    expect(shown.text).toContain(`href="/api/certificates/${code}"`);
    await db().update(s.certificates).set({ revokedAt: new Date(), revokedReason: "Copied work" }).where(and(eq(s.certificates.code, code)));
    const revoked = await page(null, `/certificates/${code}`);
    expect(revoked.text).toContain("أُلغيت هذه الشهادة");
    expect(revoked.text).toContain("Copied work");
    expect((await page(null, "/certificates/AAAA-BBBB-CCCC-DDDD")).status).toBe(404);
    expect((await page(null, "/certificates/not-a-code")).status).toBe(404);
  });

  it("tells its reader, in the reader's language, whether it stands; an ID typed another way finds it; a wrong one is answered with the box to try again", async () => {
    const w = await world();
    // With a digit at least, for the Arabic-Indic spelling below.
    const code = `${newCertificateCode().slice(0, -1)}7`;
    await db().insert(s.certificates).values({ id: newId(), code, groupId: w.group.id, userId: w.student.user.id, recipientName: "Hala Student", courseTitle: "Pages group", instructorName: "Mona", language: "ar", issuedAt: new Date("2026-11-20T10:00:00Z") });
    // An Arabic certificate, read by an English reader: the document in Arabic, the check above it in English.
    const en = await page(null, `/certificates/${code}`);
    expect(en.text).toContain("شهادة إتمام");
    expect(en.text).toContain("Valid certificate.");
    expect(en.text).toContain("Cohort issued it to \u2068Hala Student\u2069 for completing \u2068Pages group\u2069 on 20 November 2026, and has not revoked it.");
    const ar = await (await call(`/certificates/${code}`, { cookie: "lang=ar", headers: { accept: "text/html" } })).text();
    expect(ar).toContain("شهادة صالحة.");
    await db().update(s.certificates).set({ revokedAt: new Date("2026-11-25T10:00:00Z"), revokedReason: "عمل منسوخ" }).where(eq(s.certificates.code, code));
    const revoked = await page(null, `/certificates/${code}`);
    expect(revoked.text).toContain("Revoked certificate.");
    expect(revoked.text).toContain("and revoked it on 25 November 2026.");
    expect(revoked.text).not.toContain("Valid certificate.");
    // The reason, in its own direction inside the certificate's sentence.
    expect(revoked.text).toContain("\u2068عمل منسوخ\u2069");

    // Typed in lower case, without dashes, with spaces or Arabic-Indic digits: sent to its one address.
    const arabicDigits = code.replace(/[2-9]/g, (d) => String.fromCharCode(0x0660 + Number(d)));
    for (const typed of [code.toLowerCase(), code.replaceAll("-", ""), ` ${code.replaceAll("-", " ")} `, arabicDigits]) {
      const res = await call(`/certificates/${encodeURIComponent(typed)}`, { headers: { accept: "text/html" } });
      expect(res.status, typed).toBe(302);
      expect(res.headers.get("location"), typed).toBe(`/certificates/${code}`);
    }
    // The API reads it the same ways.
    expect((await call(`/api/certificates/${code.toLowerCase().replaceAll("-", "")}`)).status).toBe(200);

    // No such certificate: said so (not the site's generic 404), with the box to type the ID again.
    const missing = await page(null, "/certificates/AAAA-BBBB-CCCC-DDDD");
    expect(missing.status).toBe(404);
    expect(missing.text).toContain("No such certificate");
    expect(missing.text).toMatch(/<form[^>]*action="\/certificates"/);
    expect(missing.text).toContain('value="AAAA-BBBB-CCCC-DDDD"');

    // Check a certificate: the page, a malformed ID answered there, a well-formed one sent to its page.
    const lookup = await page(null, "/certificates");
    expect(lookup.status).toBe(200);
    expect(lookup.text).toContain("Check a certificate");
    const bad = await page(null, "/certificates?code=ABC-123");
    expect(bad.status).toBe(200);
    expect(bad.text).toContain("That is not a certificate ID: it has 16 letters and digits (no 0, 1, I or O).");
    expect(bad.text).toContain('value="ABC-123"');
    const found = await call(`/certificates?code=${encodeURIComponent(code.toLowerCase())}`, { headers: { accept: "text/html" } });
    expect(found.status).toBe(302);
    expect(found.headers.get("location")).toBe(`/certificates/${code}`);
    const arLookup = await (await call("/certificates?code=x", { cookie: "lang=ar", headers: { accept: "text/html" } })).text();
    expect(arLookup).toContain("هذا ليس رقم شهادة");
  });
});

describe("Publish later and Copy to a group", () => {
  it("schedule a draft and copy a lecture for the group's staff only", async () => {
    const w = await world();
    const at = new Date(Date.now() + 3 * 86_400_000).toISOString();
    expect((await action(w.student, "/staff/schedule", { kind: "lecture", id: w.lecture.slug, publishAt: at, intent: "schedule" })).status).toBe(403);
    // The lecture is not published: to another instructor it does not exist.
    expect((await action(w.other, "/staff/schedule", { kind: "lecture", id: w.lecture.slug, publishAt: at, intent: "schedule" })).status).toBe(404);
    expect((await action(w.teacher, "/staff/schedule", { kind: "lecture", id: w.lecture.slug, publishAt: at, intent: "schedule" })).status).toBe(200);
    expect((await db().select().from(s.lectures).where(eq(s.lectures.id, w.lecture.id)))[0]!.publishAt?.toISOString()).toBe(at);
    expect((await action(w.teacher, "/staff/schedule", { kind: "lecture", id: w.lecture.slug, intent: "clear" })).status).toBe(200);
    expect((await db().select().from(s.lectures).where(eq(s.lectures.id, w.lecture.id)))[0]!.publishAt).toBeNull();
    expect((await action(w.teacher, "/staff/schedule", { kind: "group", id: w.lecture.slug, publishAt: at, intent: "schedule" })).status).toBe(400);

    const target = await createGroup({ instructorId: w.teacher.user.id });
    // The lecture's form chooses no group for the staff member: a copy lands only where they pick, and none is a 400.
    const editor = await (await call(`/instructor/group/${w.group.slug}/lectures/update/${w.lecture.slug}`, { cookie: w.teacher.cookie })).text();
    expect(editor).toMatch(/<select id="copy-lecture-group" name="groupId" required="">\s*<option value="" disabled="" selected="">Choose a group<\/option>/);
    expect((await action(w.teacher, "/staff/copy-lecture", { lectureId: w.lecture.id, groupId: "", startsAt: "" })).status).toBe(400);
    expect((await action(w.other, "/staff/copy-lecture", { lectureId: w.lecture.id, groupId: target.id, startsAt: "" })).status).toBe(404);
    expect((await action(w.teacher, "/staff/copy-lecture", { lectureId: w.lecture.id, groupId: target.id, startsAt: "" })).status).toBe(200);
    expect((await db().select().from(s.lectures).where(eq(s.lectures.groupId, target.id))).map((l) => [l.title, l.published])).toEqual([["Week one", false]]);

    // Posted as a plain form (no app scripts, or a script): JSON with the status the refusal means, not a 200.
    const direct = async (who: SignedIn, path: string, fields: Record<string, string>) => {
      const res = await call(path, { method: "POST", form: form(fields), cookie: who.cookie });
      return { status: res.status, body: (await res.json()) as { ok: boolean; code: string; message: string } };
    };
    const refusals: [SignedIn, string, Record<string, string>, number, string][] = [
      [w.other, "/staff/copy-lecture", { lectureId: w.lecture.id, groupId: target.id, startsAt: "" }, 404, "not_found"],
      [w.other, "/staff/schedule", { kind: "lecture", id: w.lecture.slug, publishAt: at, intent: "schedule" }, 404, "not_found"],
      [w.teacher, "/staff/schedule", { kind: "task", id: "no-such-task", intent: "clear" }, 404, "not_found"],
      [w.teacher, "/staff/schedule", { kind: "lecture", id: w.lecture.slug, publishAt: "garbage", intent: "schedule" }, 400, "validation_failed"],
      [w.teacher, "/staff/schedule", { kind: "group", id: w.lecture.slug, intent: "schedule" }, 400, "bad_request"],
    ];
    for (const [who, path, fields, status, code] of refusals) {
      const res = await direct(who, path, fields);
      expect([res.status, res.body.ok, res.body.code], `${path} ${JSON.stringify(fields)}`).toEqual([status, false, code]);
      expect(res.body.message.length).toBeGreaterThan(0);
    }
    const done = await direct(w.teacher, "/staff/schedule", { kind: "lecture", id: w.lecture.slug, publishAt: at, intent: "schedule" });
    expect([done.status, done.body.ok]).toEqual([200, true]);
  });
});

describe("the staff areas' own addresses", () => {
  it("/instructor/group/{slug} opens the Students tab for everyone, whose page (not a JSON body) says who may", async () => {
    const w = await world();
    for (const who of [w.teacher, w.student, null]) {
      const res = await call(`/instructor/group/${w.group.slug}`, { cookie: who?.cookie, headers: { accept: "text/html" } });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`/instructor/group/${w.group.slug}/students`);
    }
    // The student then gets the app's own refusal, in the page's language.
    const refused = await page(w.student, `/instructor/group/${w.group.slug}/students`);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("<html");
    expect(refused.text).not.toContain('{"message"');
    const inArabic = await call(`/instructor/group/${w.group.slug}/students`, { cookie: `${w.student.cookie}; lang=ar`, headers: { accept: "text/html" } });
    expect(await inArabic.text()).toContain('lang="ar"');
    // An Arabic slug is carried over as typed (encoded once).
    const arabic = await call(`/instructor/group/${encodeURIComponent("دورة")}`, { cookie: w.teacher.cookie });
    expect(arabic.headers.get("location")).toBe(`/instructor/group/${encodeURIComponent("دورة")}/students`);
  });

  it("/dashboard/admin is the admin's overview at /dashboard, not a not-found page", async () => {
    const admin = await signIn(await createUser({ role: "admin" }));
    const res = await call("/dashboard/admin", { cookie: admin.cookie, headers: { accept: "text/html" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard");
    expect((await page(admin, "/dashboard")).status).toBe(200);
  });
});
