/**
 * A lecture's video link (issue 20): YouTube and Vimeo links play in the page through their privacy-enhanced
 * players (youtube-nocookie.com; Vimeo with dnt=1), loaded only when the reader presses play; every other link,
 * malformed or hostile, stays a plain link. The policy's frame-src side is in foundation-security-headers.test.ts.
 */
import { describe, expect, it } from "vitest";
import { videoEmbed } from "../../app/lib/video-embed";
import { addMember, call, createGroup, createUser, signIn } from "./factories";

const YT = "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0";

describe("which links become a player", () => {
  it.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", YT],
    ["https://youtube.com/watch?v=dQw4w9WgXcQ&list=PL123&index=2", YT],
    ["https://m.youtube.com/watch?v=dQw4w9WgXcQ", YT],
    ["http://www.youtube.com/watch?v=dQw4w9WgXcQ", YT],
    ["https://youtu.be/dQw4w9WgXcQ", YT],
    ["https://youtu.be/dQw4w9WgXcQ?t=90", `${YT}&start=90`],
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1m30s", `${YT}&start=90`],
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1h2m3s", `${YT}&start=3723`],
    ["https://www.youtube.com/embed/dQw4w9WgXcQ", YT],
    ["https://www.youtube.com/shorts/dQw4w9WgXcQ", YT],
    ["https://www.youtube.com/live/dQw4w9WgXcQ", YT],
    ["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ", YT],
    ["  https://youtu.be/dQw4w9WgXcQ  ", YT],
    ["https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871?dnt=1"],
    ["https://www.vimeo.com/76979871", "https://player.vimeo.com/video/76979871?dnt=1"],
    ["https://vimeo.com/76979871/8272103f6e", "https://player.vimeo.com/video/76979871?dnt=1&h=8272103f6e"],
    ["https://player.vimeo.com/video/76979871?h=8272103f6e", "https://player.vimeo.com/video/76979871?dnt=1&h=8272103f6e"],
    ["https://vimeo.com/channels/staffpicks/76979871", "https://player.vimeo.com/video/76979871?dnt=1"],
    ["https://vimeo.com/groups/shortfilms/videos/76979871", "https://player.vimeo.com/video/76979871?dnt=1"],
  ])("%s plays as %s", (link, src) => {
    expect(videoEmbed(link)?.src).toBe(src);
  });

  it.each([
    // Not a video host, or one that only looks like it.
    "https://example.com/watch?v=dQw4w9WgXcQ",
    "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ",
    "https://evil-youtube.com/watch?v=dQw4w9WgXcQ",
    "https://notvimeo.com/76979871",
    "https://vimeo.com.evil.example/76979871",
    "https://www.youtube.com@evil.example/watch?v=dQw4w9WgXcQ",
    // Credentials or a port on the right host.
    "https://user:pass@www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://www.youtube.com:8443/watch?v=dQw4w9WgXcQ",
    // Other schemes.
    "javascript:alert(1)//youtube.com/watch?v=dQw4w9WgXcQ",
    "data:text/html,<script>alert(1)</script>",
    "ftp://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "//www.youtube.com/watch?v=dQw4w9WgXcQ",
    // Pages of the right host that are not one video, and malformed ids.
    "https://www.youtube.com/",
    "https://www.youtube.com/watch",
    "https://www.youtube.com/watch?v=short",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ%22%3E%3Cscript%3E",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQx",
    "https://www.youtube.com/playlist?list=PL123",
    "https://www.youtube.com/@channel",
    "https://youtu.be/",
    "https://youtu.be/dQw4w9WgXcQ/extra",
    "https://vimeo.com/",
    "https://vimeo.com/about",
    "https://vimeo.com/channels/staffpicks",
    "https://vimeo.com/76979871/not-a-hash!",
    "https://player.vimeo.com/video/abc",
    "not a link",
    "",
  ])("%j stays a plain link", (link) => {
    expect(videoEmbed(link)).toBeNull();
  });

  it("passes no start offset that is not a time", () => {
    expect(videoEmbed("https://youtu.be/dQw4w9WgXcQ?t=abc")?.src).toBe(YT);
    expect(videoEmbed("https://youtu.be/dQw4w9WgXcQ?t=0")?.src).toBe(YT);
    expect(videoEmbed('https://youtu.be/dQw4w9WgXcQ?t=5"onload="x')?.src).toBe(YT);
  });
});

describe("the lecture page", () => {
  async function pageWithVideo(videoUrl: string) {
    const teacher = await signIn(await createUser({ role: "instructor" }));
    const group = await createGroup({ instructorId: teacher.user.id });
    const student = await signIn(await createUser());
    await addMember(student.user, group);
    const created = await call(`/api/lectures/group/${group.slug}`, { body: { title: "Recorded", published: true, videoUrl }, token: teacher.accessToken });
    expect(created.status).toBe(201);
    const { slug } = (await created.json()) as { slug: string };
    const res = await call(`/course/${group.slug}/lecture/${slug}`, { cookie: student.cookie, headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    return res.text();
  }

  it("shows a YouTube link as a poster that loads the privacy-enhanced player on play, with the link beside it", async () => {
    const html = await pageWithVideo("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    // Nothing is framed before the reader presses play: no request to YouTube on opening the page.
    expect(html).not.toContain("<iframe");
    expect(html).toMatch(/<button type="button" class="video-poster" data-embed-src="https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ\?rel=0"/);
    expect(html).toContain('href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"');
    expect(html).toContain(">Play the video here<");
  });

  it("shows a Vimeo link with Do Not Track", async () => {
    const html = await pageWithVideo("https://vimeo.com/76979871");
    expect(html).toContain('data-embed-src="https://player.vimeo.com/video/76979871?dnt=1"');
  });

  it.each(["https://example.com/talk.mp4", "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ", "https://www.youtube.com/playlist?list=PL123"])(
    "keeps %s a plain link",
    async (link) => {
      const html = await pageWithVideo(link);
      expect(html).not.toContain("data-embed-src");
      expect(html).not.toContain("<iframe");
      expect(html).toContain(`href="${link}"`);
      expect(html).toContain(">Watch the video<");
    },
  );
});
