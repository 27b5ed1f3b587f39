/**
 * File hand-ins (issue 21): a task may ask for files of set kinds and size; the kind is judged by the file's bytes,
 * not its name or declared type; the file is stored in R2 and served only to its student and the group's staff, never
 * as HTML: its judged type, nosniff, a sandbox policy, an attachment unless an inline preview is asked for.
 */
import { describe, expect, it } from "vitest";
import { sniffHandIn } from "../../app/lib/hand-in-files";
import { env, SELF } from "cloudflare:test";
import { addMember, call, createGroup, createUser, ORIGIN, signIn } from "./factories";
import { unique } from "./helpers";

const PDF = new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const PAGE = new TextEncoder().encode("<!doctype html><script>document.cookie</script>");

async function world(fileKinds: string[] = ["pdf"], maxFileMb = 1) {
  const teacher = await signIn(await createUser({ role: "instructor" }));
  const group = await createGroup({ instructorId: teacher.user.id });
  const [me, mate] = [await signIn(await createUser()), await signIn(await createUser())];
  await addMember(me.user, group);
  await addMember(mate.user, group);
  const lecture = (await (await call(`/api/lectures/group/${group.slug}`, { body: { title: unique("Week"), published: true }, token: teacher.accessToken })).json()) as { slug: string };
  const made = await call(`/api/lectures/${lecture.slug}/tasks`, { body: { title: unique("Report"), maxScore: 10, fileKinds, maxFileMb }, token: teacher.accessToken });
  expect(made.status).toBe(201);
  const task = (await made.json()) as { slug: string; fileKinds: string[]; maxFileMb: number };
  const upload = (bytes: Uint8Array<ArrayBuffer>, name: string, type: string, who = me) => {
    const form = new FormData();
    form.append("file", new File([bytes], name, { type }));
    form.append("notes", "My report");
    return call(`/api/lectures/${lecture.slug}/submit-task/${task.slug}/file`, { form, token: who.accessToken });
  };
  return { teacher, group, me, mate, lecture, task, upload };
}

describe("file hand-ins", () => {
  it("takes a PDF, keeps its name and size, and serves it to its student and the staff only, never as a page", async () => {
    const w = await world();
    expect(w.task).toMatchObject({ fileKinds: ["pdf"], maxFileMb: 1 });
    const res = await w.upload(PDF, "report.pdf", "application/pdf");
    expect(res.status).toBe(201);
    const { submission } = (await res.json()) as { submission: { _id: string; file: { name: string; type: string; size: number } } };
    expect(submission.file).toEqual({ name: "report.pdf", type: "application/pdf", size: PDF.length });

    const path = `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${submission._id}/file`;
    for (const who of [w.me, w.teacher]) {
      const file = await call(path, { token: who.accessToken });
      expect(file.status).toBe(200);
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(PDF);
      expect(file.headers.get("content-type")).toBe("application/pdf");
      expect(file.headers.get("x-content-type-options")).toBe("nosniff");
      expect(file.headers.get("content-disposition")).toMatch(/^attachment;/);
      expect(file.headers.get("content-security-policy")).toMatch(/^sandbox;/);
    }
    expect((await call(path, { token: w.mate.accessToken })).status).toBe(404);
    expect((await call(path)).status).toBe(401);
    // The pages' route (session cookie) serves the same file, inline when asked.
    const page = await call(`/course/${w.group.slug}/lecture/${w.lecture.slug}/task-file/${w.task.slug}/${submission._id}?inline=1`, { cookie: w.me.cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("application/pdf");
    expect(page.headers.get("content-disposition")).toMatch(/^inline;/);
    expect(page.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect((await call(`/course/${w.group.slug}/lecture/${w.lecture.slug}/task-file/${w.task.slug}/${submission._id}`, { cookie: w.mate.cookie })).status).toBe(404);

    // The page's address names the group: under another group's address the file is not found, even for its owner,
    // and someone outside the group learns no more than "No such file." (no 403 saying it exists).
    const other = await createGroup({ instructorId: w.teacher.user.id });
    await addMember(w.me.user, other);
    const elsewhere = await call(`/course/${other.slug}/lecture/${w.lecture.slug}/task-file/${w.task.slug}/${submission._id}`, { cookie: w.me.cookie });
    expect(elsewhere.status).toBe(404);
    const stranger = await signIn(await createUser());
    const refused = await call(`/course/${w.group.slug}/lecture/${w.lecture.slug}/task-file/${w.task.slug}/${submission._id}`, { cookie: stranger.cookie });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ message: "No such file.", code: "not_found" });
  });

  it("keeps a name that reads as it is: no bidi override, zero-width character, control or slash, in the answer, the list and the download", async () => {
    const w = await world();
    // U+202E shows "invoice\u202efdp.bat" as "invoicetab.pdf".
    const res = await w.upload(PDF, "invoice\u202efdp.bat", "application/pdf");
    expect(res.status).toBe(201);
    const { submission } = (await res.json()) as { submission: { _id: string; file: { name: string } } };
    expect(submission.file.name).toBe("invoicefdp.bat");
    const download = await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${submission._id}/file`, { token: w.teacher.accessToken });
    await download.arrayBuffer();
    expect(download.headers.get("content-disposition")).not.toMatch(/%E2%80%AE/i);
    expect(download.headers.get("content-disposition")).toContain("invoicefdp.bat");
    const other = await w.upload(PDF, "a\u200bb\u2066/c\u0007.pdf", "application/pdf");
    expect(((await other.json()) as { submission: { file: { name: string } } }).submission.file.name).toBe("ab_c_.pdf");
    const blank = await w.upload(PDF, "\u202e\u200b", "application/pdf");
    expect(((await blank.json()) as { submission: { file: { name: string } } }).submission.file.name).toBe("file");
  });

  it("judges the kind by content: a page named report.pdf is refused, and text is only ever text/plain", async () => {
    const w = await world(["pdf"]);
    const disguised = await w.upload(PAGE, "report.pdf", "application/pdf");
    expect(disguised.status).toBe(400);
    expect(((await disguised.json()) as { fields: Record<string, string> }).fields.file).toContain("judged by their content");

    const t = await world(["text"]);
    const res = await t.upload(PAGE, "index.html", "text/html");
    expect(res.status).toBe(201);
    const { submission } = (await res.json()) as { submission: { _id: string } };
    const file = await call(`/api/lectures/${t.lecture.slug}/tasks/${t.task.slug}/submissions/${submission._id}/file?inline=1`, { token: t.teacher.accessToken });
    expect(file.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(file.headers.get("content-security-policy")).toMatch(/^sandbox;/);
  });

  it("refuses a file above the task's limit (413) and a link on a file task, keeping nothing", async () => {
    const w = await world(["pdf"], 1);
    const big = new Uint8Array(1024 * 1024 + 1);
    big.set(PDF);
    expect((await w.upload(big, "big.pdf", "application/pdf")).status).toBe(413);
    expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}`, { body: { link: "https://github.com/me/x" }, token: w.me.accessToken })).status).toBe(409);
    const mine = (await (await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, { token: w.me.accessToken })).json()) as { submissions: unknown[] };
    expect(mine.submissions).toEqual([]);
  });

  it("keeps each version's file", async () => {
    const w = await world(["pdf", "text"]);
    const first = (await (await w.upload(PDF, "v1.pdf", "application/pdf")).json()) as { submission: { _id: string } };
    expect((await w.upload(new TextEncoder().encode("notes v2"), "v2.txt", "text/plain")).status).toBe(200);
    const base = `/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions/${first.submission._id}`;
    const versions = (await (await call(`${base}/versions`, { token: w.teacher.accessToken })).json()) as unknown[];
    expect(versions).toHaveLength(2);
    expect(new Uint8Array(await (await call(`${base}/file?version=1`, { token: w.teacher.accessToken })).arrayBuffer())).toEqual(PDF);
    expect(await (await call(`${base}/file`, { token: w.teacher.accessToken })).text()).toBe("notes v2");
  });

  it("stores at most 20 files an hour from one student, whatever the task: the 21st is a 429 and keeps nothing", async () => {
    const w = await world();
    for (let i = 1; i <= 20; i++) expect((await w.upload(PDF, `v${i}.pdf`, "application/pdf")).status).toBeLessThan(300);
    const limited = await w.upload(PDF, "v21.pdf", "application/pdf");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await limited.json()) as { message: string }).message).toMatch(/many files/);
    const versions = await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, { token: w.me.accessToken });
    const [own] = ((await versions.json()) as { submissions: { _id: string; file: { name: string } }[] }).submissions;
    expect(own!.file.name).toBe("v20.pdf");
    // The limit is the student's own: a classmate hands in as usual.
    expect((await w.upload(PDF, "mate.pdf", "application/pdf", w.mate)).status).toBe(201);
  });

  it("refuses a stranger, and a body larger than the task allows, before reading the body: its parts are never parsed", async () => {
    const w = await world(["pdf"], 1);
    const stranger = await signIn(await createUser());
    const path = `/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}/file`;
    // Not multipart at all: read, it would be a 400; the caller is refused first.
    const garbage = (token: string, size: number) =>
      SELF.fetch(`${ORIGIN}${path}`, { method: "POST", headers: { authorization: token, origin: ORIGIN, "content-type": "multipart/form-data; boundary=x" }, body: "x".repeat(size) });
    expect((await garbage(w.me.accessToken, 1000)).status).toBe(400);
    const refused = await garbage(stranger.accessToken, 1000);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe("Only the group's members and staff can see its tasks.");
    // A member declaring 3 MB to a task of 1 MB: a 413 before the parts are read.
    const large = await garbage(w.me.accessToken, 3 * 1024 * 1024);
    expect(large.status).toBe(413);
    expect(((await large.json()) as { message: string }).message).toBe("Files for this task are limited to 1 MB.");
  });

  it("the task page's own form: a file only from someone who may hand one in, up to the task's limit, refused before reading", async () => {
    const w = await world(["pdf"], 1);
    const stranger = await signIn(await createUser());
    const linkTask = (await (await call(`/api/lectures/${w.lecture.slug}/tasks`, { body: { title: unique("Link"), maxScore: 10 }, token: w.teacher.accessToken })).json()) as { slug: string };
    const page = (task: string) => `${ORIGIN}/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${task}`;
    // Not multipart at all: read, it is a 400 (the form could not be read); refused unread, a 413.
    const garbage = (cookie: string | undefined, size: number, task = w.task.slug) =>
      SELF.fetch(page(task), { method: "POST", headers: { ...(cookie ? { cookie } : {}), origin: ORIGIN, accept: "application/json", "content-type": "multipart/form-data; boundary=x" }, body: "x".repeat(size) });
    const KB = 1024;
    expect((await garbage(w.me.cookie, 200 * KB)).status).toBe(400);
    // A stranger, someone signed out, a member on a task that takes a link: the forms' 64 KB, not the task's 1 MB.
    for (const [cookie, task] of [[stranger.cookie, w.task.slug], [undefined, w.task.slug], [w.me.cookie, linkTask.slug]] as const) {
      const refused = await garbage(cookie, 65 * KB, task);
      expect(refused.status).toBe(413);
      expect(((await refused.json()) as { message: string }).message).toBe("Forms are limited to 64 KB.");
    }
    // Their small forms are read like any other (this one is not a form: 400).
    expect((await garbage(stranger.cookie, 1000)).status).toBe(400);
    // A member declaring 3 MB to a task of 1 MB: the task's own words, before the parts are read.
    const large = await garbage(w.me.cookie, 3 * 1024 * KB);
    expect(large.status).toBe(413);
    expect(((await large.json()) as { message: string }).message).toBe("Files for this task are limited to 1 MB.");
    // Up to the task's limit and its framing, the member's body is read (and here found not to be a form).
    expect((await garbage(w.me.cookie, 1024 * KB + 60 * KB)).status).toBe(400);
    expect((await garbage(w.me.cookie, 1024 * KB + 65 * KB)).status).toBe(413);
    // A body without a declared size, read past the task's limit: refused in the task's words too.
    const chunked = await SELF.fetch(page(w.task.slug), {
      method: "POST",
      headers: { cookie: w.me.cookie, origin: ORIGIN, accept: "application/json", "content-type": "multipart/form-data; boundary=x" },
      body: new ReadableStream({ start(c) { for (let i = 0; i < 20; i++) c.enqueue(new Uint8Array(64 * KB)); c.close(); } }),
    });
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { message: string }).message).toBe("Files for this task are limited to 1 MB.");
    // And a real file of 200 KB through the page's form is handed in.
    const form = new FormData();
    form.append("intent", "submit-file");
    form.append("file", new File([PDF, new Uint8Array(200 * KB).fill(0x25)], "long.pdf", { type: "application/pdf" }));
    const posted = await SELF.fetch(page(w.task.slug), { method: "POST", headers: { cookie: w.me.cookie, origin: ORIGIN }, body: form });
    expect(posted.status).toBe(200);
    const listed = await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, { token: w.me.accessToken });
    const [own] = ((await listed.json()) as { submissions: { file: { name: string; size: number } }[] }).submissions;
    expect(own!.file).toMatchObject({ name: "long.pdf", size: PDF.length + 200 * KB });
  });

  it("the task page under another group's address, or one that does not exist, takes nothing: not a link, not a file", async () => {
    const w = await world(["pdf"], 1);
    const other = await createGroup();
    for (const group of [other.slug, "no-such-group"]) {
      const path = `${ORIGIN}/course/${group}/lecture/${w.lecture.slug}/Add-Task/${w.task.slug}`;
      expect((await SELF.fetch(path, { headers: { cookie: w.me.cookie } })).status).toBe(404);
      const link = await SELF.fetch(path, { method: "POST", headers: { cookie: w.me.cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ intent: "submit", link: "https://github.com/me/x" }).toString() });
      expect(link.status).toBe(404);
      const form = new FormData();
      form.append("intent", "submit-file");
      form.append("file", new File([PDF, new Uint8Array(200 * 1024).fill(0x25)], "big.pdf", { type: "application/pdf" }));
      const file = await SELF.fetch(path, { method: "POST", headers: { cookie: w.me.cookie, origin: ORIGIN, accept: "application/json" }, body: form });
      // A file larger than the forms' 64 KB gets no allowance there: refused before it is read.
      expect(file.status).toBe(413);
    }
    const listed = await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, { token: w.me.accessToken });
    expect(((await listed.json()) as { submissions: unknown[] }).submissions).toEqual([]);
  });

  it("notes beside a file follow the link's rule on the page and the API: 2000 characters, no control characters, nothing stored when refused", async () => {
    const w = await world(["pdf"], 1);
    const countFiles = async () => (await env.IMAGES.list({ prefix: "hand-ins/" })).objects.length;
    const before = await countFiles();
    const pageForm = (notes: string) => {
      const form = new FormData();
      form.append("intent", "submit-file");
      form.append("file", new File([PDF], "report.pdf", { type: "application/pdf" }));
      form.append("notes", notes);
      return SELF.fetch(`${ORIGIN}/course/${w.group.slug}/lecture/${w.lecture.slug}/Add-Task/${w.task.slug}.data`, { method: "POST", headers: { cookie: w.me.cookie, origin: ORIGIN }, body: form });
    };
    // 2001 characters through the page's form (the API's schema already refused them there): a field error, nothing kept.
    const long = await pageForm("n".repeat(2001));
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("Notes are limited to 2000 characters.");
    expect(await countFiles()).toBe(before);
    const mine = async (who = w.me) => {
      const res = await call(`/api/lectures/${w.lecture.slug}/tasks/${w.task.slug}/submissions`, { token: who.accessToken });
      return ((await res.json()) as { submissions: { notes: string | null }[] }).submissions;
    };
    expect(await mine()).toEqual([]);
    // Exactly 2000 are kept, control characters dropped, on the page and through the API.
    expect((await pageForm(`\u0007${"n".repeat(1999)}\u0000`)).status).toBe(200);
    expect((await mine())[0]!.notes).toBe("n".repeat(1999));
    const form = new FormData();
    form.append("file", new File([PDF], "mate.pdf", { type: "application/pdf" }));
    form.append("notes", "Read\u0008me");
    expect((await call(`/api/lectures/${w.lecture.slug}/submit-task/${w.task.slug}/file`, { form, token: w.mate.accessToken })).status).toBe(201);
    expect((await mine(w.mate))[0]!.notes).toBe("Readme");
    // A browser sends a textarea's line breaks as CRLF and counts each as one: 30 lines of 65 fill 1979 of the 2000.
    const lines = Array.from({ length: 30 }, () => "x".repeat(65));
    expect((await pageForm(lines.join("\r\n"))).status).toBe(200);
    expect((await mine())[0]!.notes).toBe(lines.join("\n"));
  });

  it("sniffs the kinds it takes and nothing else", () => {
    expect(sniffHandIn(PDF)).toBe("application/pdf");
    expect(sniffHandIn(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2]))).toBe("application/zip");
    expect(sniffHandIn(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe("image/png");
    expect(sniffHandIn(new TextEncoder().encode("const x = 1;\n"))).toBe("text/plain; charset=utf-8");
    expect(sniffHandIn(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1]))).toBeNull();
    expect(sniffHandIn(new Uint8Array([0xc3, 0x28]))).toBeNull();
  });
});
