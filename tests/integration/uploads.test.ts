import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, createUser, fileForm, imageFile, signIn, type ErrorBody, type SignedIn } from "./factories";

const UPLOAD = "/api/uploads/course-image";
const MB = 1024 * 1024;

const admin = async () => signIn(await createUser({ role: "admin" }));

async function upload(who: SignedIn | null, file: File) {
  return call(UPLOAD, { token: who?.accessToken, form: fileForm(file) });
}

async function expectRefused(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as ErrorBody;
  expect(body.code).toBe(code);
  return body;
}

describe("POST /api/uploads/course-image", () => {
  it.each([
    ["image/png", "png"],
    ["image/jpeg", "jpg"],
    ["image/webp", "webp"],
  ] as const)("stores a %s in R2 and serves it back with long-lived cache headers", async (type, ext) => {
    const file = imageFile(type, 4096);
    const res = await upload(await admin(), file);
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as { url: string };
    expect(url).toMatch(new RegExp(`^/media/courses/[A-Za-z0-9_-]{22}\\.${ext}$`));

    const stored = await env.IMAGES.get(url.slice("/media/".length));
    expect(stored?.httpMetadata?.contentType).toBe(type);
    expect((await stored!.arrayBuffer()).byteLength).toBe(4096);

    const got = await call(url);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe(type);
    expect(got.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(got.headers.get("strict-transport-security")).toBeTruthy();
    const etag = got.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(new Uint8Array(await file.arrayBuffer()));

    const again = await call(url, { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    await again.body?.cancel();
    const head = await call(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("4096");
  });

  it("lets any instructor upload, and the URL is accepted as a group's image", async () => {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const res = await upload(teacher, imageFile("image/webp"));
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as { url: string };
    const created = await call("/api/groups", { token: (await admin()).accessToken, body: { title: "With a cover", imageCourse: url } });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { imageCourse: string }).imageCourse).toBe(url);
  });

  it("stores a file by what its bytes are, even under another allowed declared type", async () => {
    const res = await upload(await admin(), imageFile("image/jpeg", 512, "image/png", "cover.png"));
    expect(res.status).toBe(201);
    expect(((await res.json()) as { url: string }).url).toMatch(/\.jpg$/);
  });

  it("refuses a file whose bytes are not an image, whatever it claims to be", async () => {
    const body = await expectRefused(await upload(await admin(), imageFile("text/html", 512, "image/png", "cover.png")), 400, "invalid_image");
    expect(body).toEqual({ message: "The file is not a valid PNG, JPEG or WebP image.", code: "invalid_image", fields: { file: "The file is not a valid PNG, JPEG or WebP image." } });
  });

  it.each(["image/gif", "image/svg+xml", "text/html", "application/octet-stream"])("refuses the declared type %s", async (type) => {
    const body = await expectRefused(await upload(await admin(), imageFile("image/png", 256, type)), 400, "invalid_image");
    expect(body.message).toBe("Upload a PNG, JPEG or WebP image.");
  });

  it("takes exactly 2 MB and refuses one byte more with 413, and far more before reading it", async () => {
    const me = await admin();
    expect((await upload(me, imageFile("image/png", 2 * 1024 * 1024))).status).toBe(201);
    const over = await expectRefused(await upload(me, imageFile("image/png", 2 * 1024 * 1024 + 1)), 413, "payload_too_large");
    expect(over.message).toBe("Images are limited to 2 MB.");
    await expectRefused(await upload(me, imageFile("image/png", 5 * MB)), 413, "payload_too_large");
  });

  it("refuses an empty file, a missing field and a JSON body", async () => {
    const me = await admin();
    await expectRefused(await upload(me, imageFile("image/png", 0)), 400, "invalid_image");
    const noFile = new FormData();
    noFile.append("other", "x");
    await expectRefused(await call(UPLOAD, { token: me.accessToken, form: noFile }), 400, "validation_failed");
    const json = await call(UPLOAD, { token: me.accessToken, body: { file: "data:image/png;base64,iVBORw0KGgo=" } });
    expect(json.status).toBe(415);
    await json.body?.cancel();
  });

  it("is for staff: students get 403 and anonymous callers 401", async () => {
    await expectRefused(await upload(await signIn(await createUser()), imageFile("image/png")), 403, "forbidden");
    await expectRefused(await upload(null, imageFile("image/png")), 401, "unauthorized");
  });

  it("keeps the 64 KB limit on every other API body", async () => {
    const res = await call("/api/groups", { token: (await admin()).accessToken, body: { title: "x", description: "y".repeat(70 * 1024) } });
    await expectRefused(res, 413, "payload_too_large");
  });
});

describe("GET /media/*", () => {
  it("answers 404 JSON for a missing image and for keys uploads never make", async () => {
    for (const path of ["/media/courses/AAAAAAAAAAAAAAAAAAAAAA.png", "/media/other/file.png", "/media/courses/..%2Fsecret.png", "/media/"]) {
      const res = await call(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: "No such file.", code: "not_found" });
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("only reads: other methods get 405", async () => {
    const res = await call("/media/courses/AAAAAAAAAAAAAAAAAAAAAA.png", { method: "PUT", body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    await res.body?.cancel();
  });
});
