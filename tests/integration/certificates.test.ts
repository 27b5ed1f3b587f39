/**
 * Graduation (issue 22): a group's completion rule on the one progress definition; certificates issued to every
 * member who meets it or to members chosen by hand; a public, signed statement (Open Badges 3.0 credential as a JWT
 * checked against the issuer's published key); revocation with a reason; the graduate's choice of language.
 */
import { eq } from "drizzle-orm";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import * as s from "../../db/schema";
import { newId } from "../../worker/services/ids";
import { addMember, call, createGroup, createUser, signIn, waitForMails, type ErrorBody, type SignedIn, viewerOf } from "./factories";
import { issueCertificates } from "../../worker/services/certificates";
import { db, serviceContext } from "./helpers";

const DAY = 86_400_000;

/**
 * Two lectures held (10 and 3 days ago): Amal attended both (100 %), Badr one (50 %), Camil none. With no tasks or
 * quizzes, Overall is the attendance rate.
 */
async function world() {
  const teacher = await signIn(await createUser({ role: "instructor", name: "Mona Instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id, title: "Full-stack Web" });
  const amal = await signIn(await createUser({ name: "Amal Said" }));
  const badr = await signIn(await createUser({ name: "Badr Nabil" }));
  const camil = await signIn(await createUser({ name: "Camil Fares" }));
  for (const m of [amal, badr, camil]) await addMember(m.user, group);
  await db().update(s.users).set({ locale: "ar" }).where(eq(s.users.id, badr.user.id));
  const now = Date.now();
  const lectureIds = [newId(), newId()];
  await db().insert(s.lectures).values([
    { id: lectureIds[0]!, groupId: group.id, slug: `l-${lectureIds[0]!.slice(0, 8).toLowerCase()}`, title: "One", startsAt: new Date(now - 10 * DAY), published: true },
    { id: lectureIds[1]!, groupId: group.id, slug: `l-${lectureIds[1]!.slice(0, 8).toLowerCase()}`, title: "Two", startsAt: new Date(now - 3 * DAY), published: true },
  ]);
  const present = (userId: string, lectureId: string) => ({ id: newId(), lectureId, userId, status: "present" as const, method: "manual" as const, markedAt: new Date() });
  await db().insert(s.attendance).values([present(amal.user.id, lectureIds[0]!), present(amal.user.id, lectureIds[1]!), present(badr.user.id, lectureIds[0]!)]);
  return { teacher, group, amal, badr, camil };
}
type World = Awaited<ReturnType<typeof world>>;
type Roster = {
  rule: { overall: number | null; attendance: number | null };
  members: { _id: string; name: string; overall: number | null; attendance: number | null; meetsRule: boolean; certificate: { _id: string; code: string; revokedAt: string | null } | null }[];
  former: { _id: string; name: string; certificate: { _id: string; code: string; revokedAt: string | null } }[];
};

const roster = async (w: World, who: SignedIn = w.teacher) => (await (await call(`/api/groups/${w.group.slug}/certificates`, { token: who.accessToken })).json()) as Roster;
const issue = (w: World, body: unknown = {}, who: SignedIn = w.teacher) => call(`/api/groups/${w.group.slug}/certificates`, { body, token: who.accessToken });
const setRule = (w: World, overall: number | null, attendance: number | null) => call(`/api/groups/${w.group.slug}/completion-rule`, { method: "PUT", body: { overall, attendance }, token: w.teacher.accessToken });

describe("completion rule and issuing", () => {
  it("issues to the members who meet Overall 70 % and attendance 80 %, then to one chosen by hand, each told once", async () => {
    const w = await world();
    expect((await setRule(w, 70, 80)).status).toBe(200);
    const before = await roster(w);
    expect(before.rule).toEqual({ overall: 70, attendance: 80 });
    expect(before.members.map((m) => [m.name, m.overall, m.attendance, m.meetsRule])).toEqual([
      ["Amal Said", 100, 100, true],
      ["Badr Nabil", 50, 50, false],
      ["Camil Fares", 0, 0, false],
    ]);
    // Exactly at the threshold counts: attendance 50 meets a rule of 50.
    expect((await setRule(w, 50, 50)).status).toBe(200);
    expect((await roster(w)).members.map((m) => m.meetsRule)).toEqual([true, true, false]);
    await setRule(w, 70, 80);

    const res = await issue(w);
    expect(res.status).toBe(201);
    expect(((await res.json()) as { issued: number }).issued).toBe(1);
    const after = await roster(w);
    const amal = after.members[0]!.certificate!;
    expect(amal.code).toMatch(/^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/);
    expect(after.members[1]!.certificate).toBeNull();
    const [note] = await db().select().from(s.notifications).where(eq(s.notifications.userId, w.amal.user.id));
    expect(note).toMatchObject({ kind: "certificate-issued", link: `/certificates/${amal.code}` });
    const [mail] = await waitForMails(w.amal.user.email, /Your certificate for Full-stack Web/);
    expect(mail!.text).toContain(`/certificates/${amal.code}`);

    // By hand, rule or not; Badr reads Arabic.
    const byHand = await issue(w, { userIds: [w.badr.user.id] });
    expect(((await byHand.json()) as { issued: number }).issued).toBe(1);
    await waitForMails(w.badr.user.email, /شهادتك في Full-stack Web/);
    // Again: holders are skipped.
    expect(((await (await issue(w)).json()) as { issued: number }).issued).toBe(0);
    expect((await db().select().from(s.certificates).where(eq(s.certificates.groupId, w.group.id))).length).toBe(2);
  });

  it("leaves a revoked certificate revoked when issuing to everyone who meets the rule; naming its member gives it again", async () => {
    const w = await world();
    expect((await setRule(w, 70, 80)).status).toBe(200);
    const first = (await (await issue(w)).json()) as { certificates: { _id: string; code: string }[] };
    expect(first.certificates).toHaveLength(1);
    const cert = first.certificates[0]!;
    expect((await call(`/api/certificates/${cert._id}/revoke`, { body: { reason: "Issued by mistake" }, token: w.teacher.accessToken })).status).toBe(200);
    // Amal still meets the rule; the bulk issue must not quietly undo the revocation.
    const again = await issue(w);
    expect(again.status).toBe(201);
    expect(((await again.json()) as { issued: number }).issued).toBe(0);
    const held = (await roster(w)).members.find((m) => m._id === w.amal.user.id)!.certificate!;
    expect(held.revokedAt).not.toBeNull();
    expect(((await (await call(`/api/certificates/${cert.code}`)).json()) as { certificate: { revoked: { reason: string } | null } }).certificate.revoked?.reason).toBe("Issued by mistake");
    // Named by hand, it is issued again under the same address.
    expect(((await (await issue(w, { userIds: [w.amal.user.id] })).json()) as { issued: number }).issued).toBe(1);
    expect((await roster(w)).members.find((m) => m._id === w.amal.user.id)!.certificate).toMatchObject({ code: cert.code, revokedAt: null });
  });

  it("issues at once of a revoked certificate, in the same millisecond, issue it once and tell its graduate once", async () => {
    const w = await world();
    const first = (await (await issue(w, { userIds: [w.amal.user.id] })).json()) as { certificates: { _id: string }[] };
    const told = async () => (await db().select().from(s.notifications).where(eq(s.notifications.userId, w.amal.user.id))).filter((n) => n.kind === "certificate-issued").length;
    expect(await told()).toBe(1);
    const teacher = viewerOf(w.teacher.user, "cert");
    for (let round = 0; round < 2; round++) {
      expect((await call(`/api/certificates/${first.certificates[0]!._id}/revoke`, { body: { reason: "Checking" }, token: w.teacher.accessToken })).status).toBe(200);
      // Five runs sharing one clock reading, as concurrent requests in one isolate do in production.
      const now = Date.now();
      const runs = await Promise.all(Array.from({ length: 5 }, () => issueCertificates(serviceContext().ctx, teacher, w.group.slug, { userIds: [w.amal.user.id] }, now)));
      expect(runs.map((r) => r.issued).reduce((a, b) => a + b, 0)).toBe(1);
      expect(await told()).toBe(2 + round);
    }
  });

  it("keeps a certificate listed after its holder leaves or is removed, so staff can still revoke it", async () => {
    const w = await world();
    const issued = (await (await issue(w, { userIds: [w.amal.user.id, w.badr.user.id] })).json()) as { certificates: { _id: string; code: string }[] };
    expect(issued.certificates).toHaveLength(2);
    // Amal is removed by staff; Badr leaves on his own.
    expect((await call(`/api/groups/${w.group.slug}/students/${w.amal.user.id}`, { method: "PUT", body: { status: "removed" }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await call("/api/users/leave-group", { body: { groupSlug: w.group.slug }, token: w.badr.accessToken })).status).toBe(200);
    const after = await roster(w);
    expect(after.members.map((m) => m.name)).toEqual(["Camil Fares"]);
    expect(after.former.map((f) => [f.name, f.certificate.revokedAt])).toEqual([
      ["Amal Said", null],
      ["Badr Nabil", null],
    ]);
    const amal = after.former.find((f) => f._id === w.amal.user.id)!.certificate;
    expect((await call(`/api/certificates/${amal._id}/revoke`, { body: { reason: "Removed for plagiarism" }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await roster(w)).former.find((f) => f._id === w.amal.user.id)!.certificate.revokedAt).not.toBeNull();
    // A former member gets no new certificate (current members only).
    expect((await issue(w, { userIds: [w.amal.user.id] })).status).toBe(400);
  });

  it("refuses strangers, non-members and issuing with neither a rule nor names", async () => {
    const w = await world();
    const other = await signIn(await createUser({ role: "instructor" }));
    const outsider = await createUser();
    expect((await call(`/api/groups/${w.group.slug}/certificates`)).status).toBe(401);
    expect((await call(`/api/groups/${w.group.slug}/certificates`, { token: w.amal.accessToken })).status).toBe(403);
    expect((await call(`/api/groups/${w.group.slug}/certificates`, { token: other.accessToken })).status).toBe(403);
    expect((await issue(w, {}, w.amal)).status).toBe(403);
    expect((await call(`/api/groups/${w.group.slug}/completion-rule`, { method: "PUT", body: { overall: 70, attendance: 80 }, token: w.amal.accessToken })).status).toBe(403);
    const noRule = await issue(w);
    expect(noRule.status).toBe(400);
    expect(((await noRule.json()) as ErrorBody).message).toBe("Set the group's completion rule first, or choose the members by hand.");
    const stranger = await issue(w, { userIds: [outsider.id] });
    expect(stranger.status).toBe(400);
    expect((await setRule(w, 101, null)).status).toBe(400);
    expect((await setRule(w, 70.5, null)).status).toBe(400);
    expect(await db().select().from(s.certificates).where(eq(s.certificates.groupId, w.group.id))).toEqual([]);
  });
});

describe("a certificate's dates", () => {
  // A day as the group's zone has it (Africa/Cairo, the groups' default).
  const dayOf = (ms: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Cairo" }).format(ms);
  const lecture = (groupId: string, at: number, published: boolean) => ({ id: newId(), groupId, slug: `l-${newId().slice(0, 10).toLowerCase()}`, title: "L", startsAt: new Date(at), published });

  it("run from the first published lecture to the last one held, and a course that has not started gets none (409)", async () => {
    const w = await world();
    const now = Date.now();
    // A draft dated earlier than the course is no part of it.
    await db().insert(s.lectures).values(lecture(w.group.id, now - 40 * DAY, false));
    expect((await issue(w, { userIds: [w.amal.user.id] })).status).toBe(201);
    const [held] = await db().select().from(s.certificates).where(eq(s.certificates.userId, w.amal.user.id));
    // The lectures of 10 and 3 days ago.
    expect([held!.startsOn, held!.endsOn]).toEqual([dayOf(now - 10 * DAY), dayOf(now - 3 * DAY)]);

    // Lectures all to come (a draft in the past does not start it): nothing is issued, whatever was asked.
    const teacher = w.teacher;
    const future = await createGroup({ instructorId: teacher.user.id, title: "Next term" });
    const student = await signIn(await createUser());
    await addMember(student.user, future);
    await db().insert(s.lectures).values([lecture(future.id, now + 5 * DAY, true), lecture(future.id, now - 5 * DAY, false)]);
    const early = await call(`/api/groups/${future.slug}/certificates`, { body: { userIds: [student.user.id] }, token: teacher.accessToken });
    expect(early.status).toBe(409);
    const refusal = (await early.json()) as ErrorBody & { code: string };
    expect(refusal.code).toBe("course_not_started");
    expect(refusal.message).toBe(`This course starts on ${dayOf(now + 5 * DAY)}: certificates can be issued from that day.`);
    // The roster says from when (the Cohort tab shows it and keeps its buttons off); a course under way says nothing.
    const rosterOf = async (slug: string) => (await (await call(`/api/groups/${slug}/certificates`, { token: teacher.accessToken })).json()) as { opensOn: string | null };
    expect((await rosterOf(future.slug)).opensOn).toBe(dayOf(now + 5 * DAY));
    expect((await rosterOf(w.group.slug)).opensOn).toBeNull();
    // No lectures, a start date to come: the same.
    const later = await createGroup({ instructorId: teacher.user.id });
    await addMember(student.user, later);
    await db().update(s.groups).set({ startDate: dayOf(now + 30 * DAY) }).where(eq(s.groups.id, later.id));
    expect((await call(`/api/groups/${later.slug}/certificates`, { body: { userIds: [student.user.id] }, token: teacher.accessToken })).status).toBe(409);
    expect(await db().select().from(s.certificates).where(eq(s.certificates.userId, student.user.id))).toEqual([]);
    expect((await db().select().from(s.notifications).where(eq(s.notifications.userId, student.user.id))).filter((n) => n.kind === "certificate-issued")).toEqual([]);
  });

  it("are named before issuing when lectures are still to come: how many, the last one's day and the day it would give", async () => {
    const w = await world();
    const now = Date.now();
    const rosterOf = async () => (await (await call(`/api/groups/${w.group.slug}/certificates`, { token: w.teacher.accessToken })).json()) as { stillToCome: unknown };
    // Both lectures held: nothing to say.
    expect((await rosterOf()).stillToCome).toBeNull();
    // Two published lectures ahead (in 4 and 11 days) and a draft after them, which is not part of the course yet.
    await db().insert(s.lectures).values([lecture(w.group.id, now + 4 * DAY, true), lecture(w.group.id, now + 11 * DAY, true), lecture(w.group.id, now + 30 * DAY, false)]);
    expect((await rosterOf()).stillToCome).toEqual({ lectures: 2, lastOn: dayOf(now + 11 * DAY), endsOn: dayOf(now - 3 * DAY) });
    // And the certificate issued now says what the roster said.
    expect((await issue(w, { userIds: [w.amal.user.id] })).status).toBe(201);
    const [held] = await db().select().from(s.certificates).where(eq(s.certificates.userId, w.amal.user.id));
    expect(held!.endsOn).toBe(dayOf(now - 3 * DAY));
  });
});

describe("a certificate's page", () => {
  it("names the issuer in the certificate's own language: Cohort in English, كوهورت in Arabic", async () => {
    const w = await world();
    await issue(w, { userIds: [w.amal.user.id] });
    const [held] = await db().select().from(s.certificates).where(eq(s.certificates.userId, w.amal.user.id));
    const page = async (cookie = "") => (await call(`/certificates/${held!.code}`, { cookie, headers: { accept: "text/html" } })).text();
    expect(await page()).toContain('<p class="certificate-brand">Cohort</p>');
    await db().update(s.certificates).set({ language: "ar" }).where(eq(s.certificates.id, held!.id));
    const arabic = await page("lang=ar");
    expect(arabic).toContain('<p class="certificate-brand">كوهورت</p>');
    // The check above the certificate, in the page's Arabic, names the issuer in Arabic letters too.
    expect(arabic).toContain("أصدرتها كوهورت");
    expect(arabic).not.toMatch(/أصدرتها Cohort/);
  });
});

describe("a certificate's statement", () => {
  it("is public, signed with the issuer's published key, and says when it is revoked", async () => {
    const w = await world();
    await issue(w, { userIds: [w.amal.user.id] });
    const { members } = await roster(w);
    const cert = members[0]!.certificate!;

    // Anyone, signed out, with the address; a code typed in lower case is the same certificate.
    expect((await call(`/api/certificates/${cert.code.toLowerCase()}`)).status).toBe(200);
    // An address that is no certificate, whether or not it looks like a code, is "No such certificate." (404).
    for (const wrong of ["ABCD-EFGH-JKLM-NPQR", "abc", "1", "ABCD-EFGH-JKLM-NPQ1", "%D8%B4%D9%87%D8%A7%D8%AF%D8%A9", "A".repeat(300)]) {
      const miss = await call(`/api/certificates/${wrong}`);
      expect(miss.status, wrong).toBe(404);
      expect(await miss.json()).toEqual({ message: "No such certificate.", code: "not_found" });
    }
    const res = await call(`/api/certificates/${cert.code}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { certificate: { recipientName: string; courseTitle: string; instructorName: string; revoked: unknown; url: string }; credential: Record<string, unknown>; jwt: string; verification: { kid: string } };
    expect(body.certificate).toMatchObject({ recipientName: "Amal Said", courseTitle: "Full-stack Web", instructorName: "Mona Instructor", revoked: null });
    expect(body.credential).toMatchObject({ type: ["VerifiableCredential", "OpenBadgeCredential"], id: body.certificate.url });
    // The JWT checks out against the published key set, and says what the credential says.
    const jwks = (await (await call("/api/certificates/jwks")).json()) as { keys: JsonWebKey[] };
    expect(jwks.keys[0]).not.toHaveProperty("d");
    const { payload, protectedHeader } = await jwtVerify(body.jwt, createLocalJWKSet(jwks as never), { algorithms: ["RS256"] });
    expect(protectedHeader.kid).toBe(body.verification.kid);
    expect(payload.vc).toEqual(body.credential);
    expect((payload.credentialSubject as { identifier: { identityHash: string }[] }).identifier[0]!.identityHash).toBe("Amal Said");
    // A changed statement does not.
    const [h, p, sig] = body.jwt.split(".");
    const forged = JSON.parse(atob(p!.replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
    forged.name = "Something else";
    const forgedJwt = `${h}.${btoa(JSON.stringify(forged)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}.${sig}`;
    await expect(jwtVerify(forgedJwt, createLocalJWKSet(jwks as never))).rejects.toThrow();
    expect(decodeProtectedHeader(body.jwt).alg).toBe("RS256");

    // Revoked with a reason: the statement says so; the student was told.
    expect((await call(`/api/certificates/${cert._id}/revoke`, { body: { reason: "Plagiarism found" }, token: w.amal.accessToken })).status).toBe(403);
    const other = await signIn(await createUser({ role: "instructor" }));
    expect((await call(`/api/certificates/${cert._id}/revoke`, { body: { reason: "x" }, token: other.accessToken })).status).toBe(403);
    expect((await call(`/api/certificates/${cert._id}/revoke`, { body: { reason: " " }, token: w.teacher.accessToken })).status).toBe(400);
    expect((await call(`/api/certificates/${cert._id}/revoke`, { body: { reason: "Plagiarism found" }, token: w.teacher.accessToken })).status).toBe(200);
    expect((await call(`/api/certificates/${cert._id}/revoke`, { body: { reason: "Again" }, token: w.teacher.accessToken })).status).toBe(409);
    const revoked = (await (await call(`/api/certificates/${cert.code}`)).json()) as { certificate: { revoked: { reason: string } | null }; jwt: string | null };
    expect(revoked.certificate.revoked?.reason).toBe("Plagiarism found");
    // Not signed again once revoked: nothing a checker could take for a valid credential.
    expect(revoked.jwt).toBeNull();
    const kinds = (await db().select().from(s.notifications).where(eq(s.notifications.userId, w.amal.user.id))).map((n) => n.kind);
    expect(kinds).toContain("certificate-revoked");
    // Issued again: the same address, no longer revoked.
    await issue(w, { userIds: [w.amal.user.id] });
    const again = (await (await call(`/api/certificates/${cert.code}`)).json()) as { certificate: { revoked: unknown } };
    expect(again.certificate.revoked).toBeNull();
  });

  it("names a W3C Bitstring Status List whose bit says revoked, signed with the same key, so a credential signed before its revocation is seen to be revoked", async () => {
    const w = await world();
    await issue(w, { userIds: [w.amal.user.id] });
    const cert = (await roster(w)).members[0]!.certificate!;
    const signed = (await (await call(`/api/certificates/${cert.code}`)).json()) as { credential: { credentialStatus: Record<string, string> }; jwt: string };
    const entry = signed.credential.credentialStatus;
    expect(entry).toMatchObject({ type: "BitstringStatusListEntry", statusPurpose: "revocation", statusListIndex: "0" });
    expect(entry.id).toBe(`${entry.statusListCredential}#0`);
    const jwks = createLocalJWKSet((await (await call("/api/certificates/jwks")).json()) as never);
    /** What a verifier does: fetch the list named by the credential, check its signature, read the credential's bit. */
    const bitOf = async () => {
      const path = new URL(entry.statusListCredential!).pathname;
      const res = await call(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=60");
      // The credential itself at the address, and the same secured as a JWT for a verifier that asks for one.
      const list = (await res.json()) as { id: string; type: string[]; credentialSubject: { type: string; statusPurpose: string; encodedList: string } };
      expect(list.id).toBe(entry.statusListCredential);
      expect(list.type).toEqual(["VerifiableCredential", "BitstringStatusListCredential"]);
      expect(list.credentialSubject).toMatchObject({ type: "BitstringStatusList", statusPurpose: "revocation" });
      const secured = await call(path, { headers: { accept: "application/vc+jwt" } });
      expect(secured.headers.get("content-type")).toBe("application/vc+jwt");
      const { payload } = await jwtVerify(await secured.text(), jwks, { algorithms: ["RS256"] });
      expect(payload.vc).toEqual(list);
      const encoded = list.credentialSubject.encodedList;
      expect(encoded.startsWith("u")).toBe(true);
      const gzipped = Uint8Array.from(atob(encoded.slice(1).replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
      const bits = new Uint8Array(await new Response(new Blob([gzipped]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
      // At least 16 KB (131,072 entries), the Bitstring Status List's herd size; bit 0 is the first byte's left-most.
      expect(bits.length).toBe(16 * 1024);
      return Number(entry.statusListIndex) === 0 ? bits[0]! >> 7 : -1;
    };
    expect(await bitOf()).toBe(0);
    expect((await call(`/api/certificates/${cert._id}/revoke`, { body: { reason: "Plagiarism found" }, token: w.teacher.accessToken })).status).toBe(200);
    // The JWT fetched before still verifies by its signature; its status list now says revoked.
    await jwtVerify(signed.jwt, jwks, { algorithms: ["RS256"] });
    expect(await bitOf()).toBe(1);
    const missing = await call("/api/certificates/ABCD-EFGH-JKLM-NPQR/status");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).not.toBe("public, max-age=60");
  });

  it("lets only the graduate choose its language, not once it is revoked; unknown and malformed codes are refused", async () => {
    const w = await world();
    await issue(w, { userIds: [w.amal.user.id] });
    const cert = (await roster(w)).members[0]!.certificate!;
    expect((await call(`/api/certificates/${cert._id}/language`, { method: "PUT", body: { language: "ar" }, token: w.badr.accessToken })).status).toBe(403);
    expect((await call(`/api/certificates/${cert._id}/language`, { method: "PUT", body: { language: "fr" }, token: w.amal.accessToken })).status).toBe(400);
    expect((await call(`/api/certificates/${cert._id}/language`, { method: "PUT", body: { language: "ar" }, token: w.amal.accessToken })).status).toBe(200);
    expect(((await (await call(`/api/certificates/${cert.code}`)).json()) as { certificate: { language: string } }).certificate.language).toBe("ar");
    const mine = (await (await call("/api/certificates/mine", { token: w.amal.accessToken })).json()) as { code: string }[];
    expect(mine.map((c) => c.code)).toEqual([cert.code]);
    // Once revoked, its language no longer changes (409), and the course home no longer offers the choice.
    expect((await call(`/api/certificates/${cert._id}/revoke`, { body: { reason: "Issued by mistake" }, token: w.teacher.accessToken })).status).toBe(200);
    const late = await call(`/api/certificates/${cert._id}/language`, { method: "PUT", body: { language: "en" }, token: w.amal.accessToken });
    expect(late.status).toBe(409);
    expect(((await late.json()) as { message: string }).message).toBe("This certificate was revoked: its language can no longer be changed.");
    expect(((await (await call(`/api/certificates/${cert.code}`)).json()) as { certificate: { language: string } }).certificate.language).toBe("ar");
    const home = await (await call(`/course/${w.group.slug}`, { cookie: w.amal.cookie, headers: { accept: "text/html" } })).text();
    expect(home).toContain("course-certificate");
    expect(home).not.toContain('id="certificate-language"');
    // A well-formed code that was never issued and a string that is no code are both simply no certificate.
    expect((await call("/api/certificates/AAAA-BBBB-CCCC-DDDD")).status).toBe(404);
    expect((await call("/api/certificates/not-a-code")).status).toBe(404);
  });
});
