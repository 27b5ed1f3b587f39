/**
 * GitHub-flavoured Markdown (tables, task lists, strikethrough, autolinks) through the one renderer, and through the
 * pages and API that show it, with the allowlist still in front: boxes stay disabled, raw HTML stays text, links keep
 * safe schemes and get rel="nofollow noopener", tables come wrapped in their own scrolling box.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../app/lib/markdown.server";
import { sanitiseMarkdownHtml } from "../../app/lib/sanitise-html.server";
import { addMember, call, createGroup, createUser, signIn } from "./factories";

const GFM_SOURCE = [
  "# Week 3",
  "",
  "| Property | Axis | Default |",
  "|:---------|:----:|--------:|",
  "| `margin-inline-start` | inline | 0 |",
  "| `padding-block` | block | 0 |",
  "",
  "- [x] Read the chapter",
  "- [ ] Build the card",
  "",
  "Flexbox is ~~new~~ old news. It takes ~5 to ~10 minutes. See www.example.com/docs and https://developer.mozilla.org/en-US/docs/Web/CSS?a=1&b=2 or write to help@example.com.",
].join("\n");

const HOSTILE_SOURCE = [
  '<input type="checkbox" name="agree">',
  "",
  "<input type=text value=x>",
  "",
  "<script>alert(1)</script>",
  "",
  "javascript:alert(1) <javascript:alert(2)> [click](javascript:alert(3)) www.javascript:alert(4)",
  "",
  "| a | b |",
  "|---|---|",
  "| <img src=x onerror=alert(5)> | ![x](javascript:alert(6)) |",
  "",
  "- [x] <input type=checkbox> <b onmouseover=alert(7)>bold</b>",
].join("\n");

/** Every tag name in the HTML. */
const tags = (html: string) => [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[1]!.toLowerCase());
/** Every opening `<a ...>` and `<input ...>` tag. */
const anchors = (html: string) => [...html.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]);
const inputs = (html: string) => [...html.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]);

function expectGfm(html: string) {
  // A table with its head, body and alignment, inside the box that scrolls sideways on a phone.
  expect(html).toMatch(/<div class="md-table" tabindex="0"><table>\s*<thead>\s*<tr>\s*<th align="left">Property<\/th>\s*<th align="center">Axis<\/th>\s*<th align="right">Default<\/th>/);
  expect(html).toMatch(/<tbody>\s*<tr>\s*<td align="left"><code>margin-inline-start<\/code><\/td>\s*<td align="center">inline<\/td>\s*<td align="right">0<\/td>/);
  expect(html).toContain("</table></div>");
  expect(html).not.toContain("| Property |");
  // Task lists: read-only boxes, the done one checked.
  expect(inputs(html).slice(0, 2)).toEqual(['<input type="checkbox" disabled="" checked="" />', '<input type="checkbox" disabled="" />']);
  expect(html).toContain("Read the chapter");
  // Two tildes strike, one tilde is just text.
  expect(html).toContain("<del>new</del>");
  expect(html).toContain("~5 to ~10 minutes");
  // Autolinks: www., bare https, e-mail, each with rel.
  expect(html).toContain('<a href="http://www.example.com/docs" rel="nofollow noopener">www.example.com/docs</a>');
  expect(html).toContain('<a href="https://developer.mozilla.org/en-US/docs/Web/CSS?a=1&amp;b=2" rel="nofollow noopener">');
  expect(html).toContain('<a href="mailto:help@example.com" rel="nofollow noopener">help@example.com</a>');
}

function expectSafe(html: string) {
  // The only inputs are the task-list box, disabled; raw <input> from the source is text.
  expect(inputs(html)).toEqual(['<input type="checkbox" disabled="" checked="" />']);
  expect(html).toContain("&lt;input type=&quot;checkbox&quot; name=&quot;agree&quot;&gt;");
  expect(html).toContain("&lt;input type=text value=x&gt;");
  expect(html).not.toMatch(/<script/i);
  expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  // No element carries an event handler, a javascript: URL or a tag outside the allowlist.
  expect(html).not.toMatch(/<[^>]*\son\w+=/i);
  expect(html).not.toMatch(/(href|src)="\s*javascript:/i);
  expect(html).toContain("&lt;img src=x onerror=alert(5)&gt;");
  expect(new Set(tags(html))).toEqual(new Set(["p", "a", "div", "table", "thead", "tr", "th", "tbody", "td", "img", "ul", "li", "input"]));
  for (const a of anchors(html)) expect(a).toMatch(/ rel="nofollow noopener">$/);
}

describe("GFM in the renderer", () => {
  it("renders tables, task lists, strikethrough and autolinks", () => {
    expectGfm(renderMarkdown(GFM_SOURCE));
  });

  it("keeps hostile input sanitised", () => {
    expectSafe(renderMarkdown(HOSTILE_SOURCE));
  });

  it("links only to http(s), mailto or relative addresses, every one with rel", () => {
    const html = renderMarkdown("[a](/course/x#y) [b](https://example.com) [c](irc://example.com) [d](data:text/html,x) <mailto:me@example.com> <vbscript:x>");
    expect(anchors(html)).toEqual([
      '<a href="/course/x#y" rel="nofollow noopener">',
      '<a href="https://example.com" rel="nofollow noopener">',
      '<a rel="nofollow noopener">',
      '<a href="" rel="nofollow noopener">',
      '<a href="mailto:me@example.com" rel="nofollow noopener">',
      '<a href="" rel="nofollow noopener">',
    ]);
  });

  it("leaves footnotes out: no ids, sections or superscripts", () => {
    const html = renderMarkdown("A claim.[^1]\n\nMore[^x].\n\n[^x]: A note.");
    expect(tags(html)).not.toContain("section");
    expect(tags(html)).not.toContain("sup");
    expect(html).not.toContain("id=");
    expect(html).toContain("A claim.[^1]");
  });

  it("still highlights code and keeps its classes", () => {
    const html = renderMarkdown("```html\n<input onclick=\"x()\"><script>var a = 1;</script>\n```");
    expect(html).toContain('<code class="hljs language-xml" dir="ltr">');
    expect(html).toContain('<span class="language-javascript"><span class="hljs-keyword">var</span>');
    expect(inputs(html)).toEqual([]);
    expect(html).not.toMatch(/<script/i);
  });

  it("lets the keyboard reach every code block, which scrolls sideways on a phone (axe scrollable-region-focusable)", () => {
    // Highlighted, plain (unknown language) and indented code alike; an author cannot take it away or add another.
    for (const source of ["```css\n.card { display: grid; }\n```", "```\nplain text\n```", "    indented code", "```sh\nls\n```"]) {
      expect(renderMarkdown(source), source).toMatch(/^<pre tabindex="0"><code[ >]/);
    }
    expect(sanitiseMarkdownHtml('<pre tabindex="-1" class="x">a</pre>')).toBe('<pre tabindex="0">a</pre>');
  });
});

describe("emphasis the parser would take seconds over", () => {
  // micromark pairs * _ ~ runs in a time that grows with the square of their number in a paragraph: "a*_" written
  // 6,666 times took 3.4 s of a request's CPU on every view of the part that held it (a stranger's attack review).
  it("is left as the characters written, with the rest of the text; real text keeps its emphasis", () => {
    const hostile = "a*_".repeat(6666);
    const html = renderMarkdown(`# Heading\n\n${hostile}\n\n**bold**`);
    expect(html).toContain("<h1>Heading</h1>");
    expect(html).toContain(`<p>${hostile}</p>`);
    expect(html).toContain("<p>**bold**</p>");
    for (const tilde of ["a~~".repeat(6666), "_*".repeat(10_000)]) expect(renderMarkdown(tilde)).not.toMatch(/<(em|strong|del)>/);
    // A long lecture: 300 paragraphs, each with a bold term, an italic one and a snake_case name.
    const lecture = Array.from({ length: 300 }, (_, i) => `Term **bold ${i}** and _italic_ with snake_case_name here.`).join("\n\n");
    const rendered = renderMarkdown(lecture);
    expect(rendered.match(/<strong>/g)).toHaveLength(300);
    expect(rendered.match(/<em>/g)).toHaveLength(300);
    expect(rendered).toContain("snake_case_name");
  });
});

describe("the allowlist on its own", () => {
  it("rebuilds what it keeps and drops the rest", () => {
    expect(sanitiseMarkdownHtml('<input type="checkbox" checked="" name="x" />')).toBe('<input type="checkbox" disabled="" checked="" />');
    expect(sanitiseMarkdownHtml('<input type="text" disabled="" />')).toBe("");
    expect(sanitiseMarkdownHtml('<input type="checkbox" />')).toBe('<input type="checkbox" disabled="" />');
    expect(sanitiseMarkdownHtml('<td align="left" onclick="x()" style="color:red">1</td>')).toBe('<td align="left">1</td>');
    expect(sanitiseMarkdownHtml('<th align="justify">1</th>')).toBe("<th>1</th>");
    expect(sanitiseMarkdownHtml('<a href="jav&#x61;script:alert(1)">x</a>')).toBe('<a rel="nofollow noopener">x</a>');
    expect(sanitiseMarkdownHtml('<a href="java&#9;script:alert(1)">x</a>')).toBe('<a rel="nofollow noopener">x</a>');
    expect(sanitiseMarkdownHtml('<a href="javascript&colon;alert(1)">x</a>')).toBe('<a rel="nofollow noopener">x</a>');
    expect(sanitiseMarkdownHtml('<a href="https://x.test" rel="opener" target="_blank">x</a>')).toBe('<a href="https://x.test" rel="nofollow noopener">x</a>');
    expect(sanitiseMarkdownHtml('<img src="https://x.test/a.png" alt="a" onerror="x()" />')).toBe('<img src="https://x.test/a.png" alt="a" />');
    expect(sanitiseMarkdownHtml("<iframe src=\"https://x.test\"></iframe><style>p{}</style><form><button>b</button></form>")).toBe("p{}b");
    expect(sanitiseMarkdownHtml('<img src="x" onerror=alert(1)>')).toBe('&lt;img src="x" onerror=alert(1)>');
    expect(sanitiseMarkdownHtml("a < b <!-- c -->")).toBe("a &lt; b &lt;!-- c -->");
  });
});

describe("GFM on the pages and in the API", () => {
  async function world() {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const student = await signIn(await createUser());
    await addMember(student.user, group);
    const res = await call(`/api/lectures/group/${group.slug}`, { body: { title: "Logical properties", published: true, body: `${GFM_SOURCE}\n\n${HOSTILE_SOURCE}` }, token: teacher.accessToken });
    expect(res.status).toBe(201);
    const lecture = (await res.json()) as { _id: string; slug: string };
    return { teacher, group, student, lecture };
  }

  it("shows a published lecture's table, task list, strikethrough and autolinks to a student, sanitised", async () => {
    const w = await world();
    const page = await SELF.fetch(`http://localhost/course/${w.group.slug}/lecture/${w.lecture.slug}`, { headers: { cookie: w.student.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const start = html.indexOf('<article class="prose lecture-body"');
    expect(start).toBeGreaterThan(-1);
    const body = html.slice(start, html.indexOf("</article>", start));
    expectGfm(body);
    expect(body).toContain("&lt;input type=text value=x&gt;");
    expect(body).toContain("&lt;img src=x onerror=alert(5)&gt;");
    expect(inputs(body)).toEqual(['<input type="checkbox" disabled="" checked="" />', '<input type="checkbox" disabled="" />', '<input type="checkbox" disabled="" checked="" />']);
    expect(body).not.toMatch(/<script/i);
    expect(body).not.toMatch(/<[^>]*\son\w+=/i);
    expect(body).not.toMatch(/(href|src)="\s*javascript:/i);
    for (const a of anchors(body)) expect(a).toMatch(/ rel="nofollow noopener">$/);

    const api = (await (await call(`/api/lectures/${w.lecture.slug}`, { token: w.student.accessToken })).json()) as { bodyHtml: string };
    expectGfm(api.bodyHtml);
  });

  it("renders task bodies and quiz questions with the same renderer", async () => {
    const w = await world();
    const task = await call(`/api/lectures/${w.lecture.slug}/tasks`, {
      body: { title: "Table of axes", body: GFM_SOURCE, dueAt: new Date(Date.now() + 86_400_000).toISOString(), maxScore: 10, allowLate: true },
      token: w.teacher.accessToken,
    });
    expect(task.status).toBe(201);
    const { _id: taskId } = (await task.json()) as { _id: string };
    const one = (await (await call(`/api/lectures/${w.lecture._id}/tasks/${taskId}`, { token: w.student.accessToken })).json()) as { bodyHtml: string };
    expect(one.bodyHtml).toBe(renderMarkdown(GFM_SOURCE));

    const quiz = await call("/api/quizzes", {
      body: {
        lectureId: w.lecture.slug,
        title: "Axes",
        description: GFM_SOURCE,
        durationMinutes: null,
        opensAt: null,
        closesAt: null,
        maxAttempts: 1,
        showAnswers: "after-submit",
        published: false,
        questions: [{ text: HOSTILE_SOURCE, type: "true-false", correct: 0, points: 1 }],
      },
      token: w.teacher.accessToken,
    });
    expect(quiz.status).toBe(201);
    const { _id: quizId } = (await quiz.json()) as { _id: string };
    const staff = (await (await call(`/api/quizzes/${quizId}`, { token: w.teacher.accessToken })).json()) as { descriptionHtml: string; questions: { textHtml: string }[] };
    expect(staff.questions[0]!.textHtml).toBe(renderMarkdown(HOSTILE_SOURCE));
    expectSafe(staff.questions[0]!.textHtml);
    expectGfm(staff.descriptionHtml);
  });
});
