import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; maxLength?: number; minLength?: number; $ref?: string; items?: Schema };
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, unknown> }>>;
  components?: { schemas?: Record<string, Schema> };
};

const PUBLIC_PATHS = ["/api/groups", "/api/groups/{id}", "/api/feedback", "/api/contact"];

async function openapi(): Promise<Doc> {
  const res = await SELF.fetch("http://localhost/api/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return JSON.parse(await res.text()) as Doc;
}

function resolve(doc: Doc, schema: Schema): Schema {
  return schema.$ref ? doc.components!.schemas![schema.$ref.split("/").pop()!]! : schema;
}

describe("OpenAPI", () => {
  it("serves an OpenAPI 3.1 document with the public paths", async () => {
    const doc = await openapi();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(PUBLIC_PATHS));
    expect(Object.keys(doc.paths["/api/groups"]!)).toContain("get");
    expect(Object.keys(doc.paths["/api/groups/{id}"]!.get!.responses)).toEqual(expect.arrayContaining(["200", "400", "404"]));
    expect(Object.keys(doc.paths["/api/contact"]!)).toContain("post");
  });

  it("describes the contact body from the zod schema, bounds included", async () => {
    const doc = await openapi();
    const body = resolve(doc, doc.paths["/api/contact"]!.post!.requestBody!.content["application/json"]!.schema);
    expect(body.type).toBe("object");
    expect(Object.keys(body.properties!).sort()).toEqual(["email", "message", "name"]);
    expect([...body.required!].sort()).toEqual(["email", "message", "name"]);
    expect(body.properties!.name!.maxLength).toBe(100);
    expect(body.properties!.message!.maxLength).toBe(5000);
  });

  it("describes the group list with the spec's field names", async () => {
    const doc = await openapi();
    const list = resolve(doc, (doc.paths["/api/groups"]!.get!.responses["200"] as { content: Record<string, { schema: Schema }> }).content["application/json"]!.schema);
    expect(list.type).toBe("array");
    const item = resolve(doc, list.items!);
    expect(Object.keys(item.properties!)).toEqual(expect.arrayContaining(["_id", "title", "slug", "imageCourse", "start_date", "instructorName"]));
  });

  it("renders a readable reference page listing the paths", async () => {
    const res = await SELF.fetch("http://localhost/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain("<title>Cohort API reference</title>");
    for (const path of PUBLIC_PATHS) expect(html).toContain(`<code>${path}</code>`);
    for (const field of ["name", "email", "message"]) expect(html).toContain(`<code>${field}</code>`);
  });
});

describe("unknown API routes", () => {
  it.each(["/api/nope", "/api/groups/a/b", "/api"])("answer 404 JSON for %s", async (path) => {
    const res = await SELF.fetch(`http://localhost${path}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ message: "No such API route.", code: "not_found" });
  });

  it("answers 404 JSON for a method the route does not have", async () => {
    const res = await SELF.fetch("http://localhost/api/feedback", { method: "DELETE" });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "not_found" });
  });
});
