import type { Page, WebSocketRoute } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, useBrowser } from "./browser";
import { DEMO_LOGINS, signIn } from "./session";

/** A text no other run or test wrote. */
const unique = (label: string) => `${label} ${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

/** The chat's lines holding `text` (one, if delivery is exact). */
const lines = (page: Page, text: string) => page.locator(".chat-msg", { hasText: text });

async function openChat(page: Page, path: string) {
  await page.goto(path);
  // "Live": the socket is open and its chat.sync came back with more: false.
  await page.locator('.chat-status[data-status="open"]').waitFor({ timeout: 10_000 });
}

async function send(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
  // Acknowledged: the server stored it and the sender holds the stored copy.
  await lines(page, text).and(page.locator('[data-state="sent"]')).waitFor({ timeout: 5_000 });
}

describe("group chat", () => {
  const newPage = useBrowser();

  async function signedInPage(login: { email: string; password: string }, width?: number) {
    const page = await newPage({ width });
    await signIn(page.context(), login.email, login.password);
    return page;
  }

  it("keeps its place while it connects: the status badge changing from Connecting to Live moves nothing (Arabic, 375 px)", async () => {
    const page = await signedInPage(DEMO_LOGINS.instructor, 375);
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number[] };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; sources: { node?: Node | null }[] })[]) {
          if (entry.sources.some((s) => s.node instanceof Element && s.node.closest(".chat-panel"))) w.shifts.push(entry.value);
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    await openChat(page, "/instructor/group/frontend-react/messages");
    await page.waitForTimeout(300);
    // "جارٍ الاتصال…" wrapped the head to two lines and "مباشر" fits on one: the history moved up 37 px (0.08).
    const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
    expect(shifts.reduce((a, b) => a + b, 0)).toBeLessThan(0.01);
    // Only the current label is seen (and read).
    await expect(page.locator(".chat-status").innerText()).resolves.toBe("مباشر");
  });

  it("delivers a message to the other member within a second, once, and the instructor's deletion reaches both", async () => {
    const nour = await signedInPage(DEMO_LOGINS.student);
    const sara = await signedInPage(DEMO_LOGINS.sara);
    await openChat(nour, "/course/frontend-react");
    await openChat(sara, "/course/frontend-react");
    // The seeded conversation is there.
    await lines(sara, "Welcome to the React cohort!").waitFor();

    const text = unique("Who wants to pair on the profile card?");
    await send(nour, text);
    await lines(sara, text).waitFor({ timeout: 1_000 });
    expect(await lines(sara, text).locator(".chat-author").textContent()).toBe("Nour Ali");
    await nour.waitForTimeout(300);
    expect(await lines(nour, text).count()).toBe(1);
    expect(await lines(sara, text).count()).toBe(1);

    const instructor = await signedInPage(DEMO_LOGINS.instructor);
    await openChat(instructor, "/instructor/group/frontend-react/messages");
    const line = lines(instructor, text);
    await line.hover();
    await line.getByRole("button", { name: "Delete the message from Nour Ali" }).click();
    const dialog = instructor.getByRole("dialog", { name: "Delete this message?" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    await dialog.waitFor({ state: "hidden" });
    // Said to a screen reader, as a new message is.
    await expect.poll(() => instructor.locator(".chat-panel [aria-live]").allTextContents()).toContain("The message was deleted.");

    for (const page of [nour, sara, instructor]) {
      await lines(page, text).waitFor({ state: "detached", timeout: 3_000 });
    }
    expect(await sara.locator('.chat-msg[data-deleted] .chat-text-deleted').last().textContent()).toBe("This message was deleted.");
  });

  it("after going offline and back, a member receives what they missed exactly once", async () => {
    const nour = await signedInPage(DEMO_LOGINS.student);
    const sara = await signedInPage(DEMO_LOGINS.sara);
    await openChat(nour, "/course/frontend-react");
    await openChat(sara, "/course/frontend-react");

    // Nothing in flight when the network goes (a request cut off mid-way is logged as a console error).
    await sara.waitForLoadState("networkidle");
    await sara.context().setOffline(true);
    await sara.locator('.chat-status[data-status="reconnecting"]').waitFor({ timeout: 5_000 });
    const text = unique("Sent while Sara was away");
    await send(nour, text);
    await sara.waitForTimeout(500);
    expect(await lines(sara, text).count()).toBe(0);

    await sara.context().setOffline(false);
    await lines(sara, text).waitFor({ timeout: 10_000 });
    await sara.locator('.chat-status[data-status="open"]').waitFor();
    await sara.waitForTimeout(500);
    expect(await lines(sara, text).count()).toBe(1);
  });

  it("keeps a message typed while offline and sends it once when the connection returns", async () => {
    const nour = await signedInPage(DEMO_LOGINS.student);
    const sara = await signedInPage(DEMO_LOGINS.sara);
    await openChat(nour, "/course/frontend-react");
    await openChat(sara, "/course/frontend-react");

    await nour.waitForLoadState("networkidle");
    await nour.context().setOffline(true);
    await nour.locator('.chat-status[data-status="reconnecting"]').waitFor({ timeout: 5_000 });
    const text = unique("Typed on the train");
    const box = nour.getByRole("textbox", { name: "Message" });
    await box.fill(text);
    await box.press("Enter");
    await lines(nour, text).and(nour.locator('[data-state="sending"]')).waitFor();
    expect(await lines(nour, text).textContent()).toContain("Sending…");

    await nour.context().setOffline(false);
    await lines(nour, text).and(nour.locator('[data-state="sent"]')).waitFor({ timeout: 10_000 });
    await lines(sara, text).waitFor({ timeout: 5_000 });
    await sara.waitForTimeout(300);
    expect(await lines(nour, text).count()).toBe(1);
    expect(await lines(sara, text).count()).toBe(1);
  });

  it("keeps an unsent message across a reload and sends it once afterwards", async () => {
    const nour = await signedInPage(DEMO_LOGINS.student);
    // While `silent`, the chat socket opens but the room never answers: nothing can be sent.
    let silent = true;
    const held: WebSocketRoute[] = [];
    await nour.routeWebSocket(/\/parties\/group-room\//, (ws) => {
      if (silent) held.push(ws);
      else ws.connectToServer();
    });
    await nour.goto("/course/frontend-react");
    await nour.locator('.chat-status[data-status="syncing"]').waitFor();
    const text = unique("Written just before a reload");
    const box = nour.getByRole("textbox", { name: "Message" });
    await box.fill(text);
    await box.press("Enter");
    await lines(nour, text).and(nour.locator('[data-state="sending"]')).waitFor();

    await nour.reload();
    await lines(nour, text).and(nour.locator('[data-state="sending"]')).waitFor();
    silent = false;
    // Drop the silent socket: the next one reaches the room, syncs and sends what is pending.
    await Promise.all(held.map((ws) => ws.close({ code: 1012, reason: "restart" })));
    await lines(nour, text).and(nour.locator('[data-state="sent"]')).waitFor({ timeout: 10_000 });

    const sara = await signedInPage(DEMO_LOGINS.sara);
    await openChat(sara, "/course/frontend-react");
    await lines(sara, text).waitFor();
    expect(await lines(sara, text).count()).toBe(1);
    expect(await nour.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith("cohort:chat-pending:")))).toEqual([]);
  });

  it("keeps a refused message refused across a reload: only Retry sends it, after what was written since", async () => {
    const nour = await signedInPage(DEMO_LOGINS.student);
    const refused = unique("Refused by the room");
    // While `refusing`, the room answers this one message as it answers a burst past the limit; the rest goes through.
    let refusing = true;
    await nour.routeWebSocket(/\/parties\/group-room\//, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((raw) => {
        const frame = JSON.parse(String(raw)) as { type: string; clientId?: string; text?: string };
        if (refusing && frame.type === "chat.send" && frame.text === refused) {
          ws.send(JSON.stringify({ type: "error", code: "rate_limited", message: "Slow down: too many messages.", clientId: frame.clientId, retryAfter: 1 }));
        } else server.send(raw);
      });
    });
    await openChat(nour, "/course/frontend-react");
    const box = nour.getByRole("textbox", { name: "Message" });
    await box.fill(refused);
    await box.press("Enter");
    const failed = lines(nour, refused).and(nour.locator('[data-state="failed"]'));
    await failed.getByText("Not sent: too many messages. Wait a moment.").waitFor();
    // From here the room would take it (the limit's window has passed), as it would after a real burst.
    refusing = false;
    const later = unique("Written after the refusal");
    await send(nour, later);

    await nour.reload();
    await nour.locator('.chat-status[data-status="open"]').waitFor({ timeout: 10_000 });
    // Still refused, with its reason and its two choices, and not posted by the reload.
    await failed.getByText("Not sent: too many messages. Wait a moment.").waitFor();
    await expect(failed.getByRole("button", { name: "Retry" }).isVisible()).resolves.toBe(true);
    const sara = await signedInPage(DEMO_LOGINS.sara);
    await openChat(sara, "/course/frontend-react");
    await lines(sara, later).waitFor();
    await sara.waitForTimeout(500);
    expect(await lines(sara, refused).count()).toBe(0);

    // Retry is the sender's choice: sent once, and placed after the message written later.
    await lines(nour, refused).getByRole("button", { name: "Retry" }).click();
    await lines(nour, refused).and(nour.locator('[data-state="sent"]')).waitFor({ timeout: 5_000 });
    await lines(sara, refused).waitFor();
    expect(await lines(sara, refused).count()).toBe(1);
    const order = await sara.locator(".chat-msg").allTextContents();
    expect(order.findIndex((x) => x.includes(later))).toBeLessThan(order.findIndex((x) => x.includes(refused)));
  });

  it("on a phone's touch keyboard (no Shift+Enter), Enter starts a new line and the Send button sends, in Arabic", async () => {
    const page = await newPage({ width: 375, height: 800, touch: true });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), DEMO_LOGINS.student.email, DEMO_LOGINS.student.password);
    await openChat(page, "/course/frontend-react");
    expect(await page.evaluate(() => matchMedia("(hover: none) and (pointer: coarse)").matches)).toBe(true);
    const box = page.locator(".chat-input");
    const first = unique("سطر أول");
    await box.tap();
    await box.fill(first);
    await box.press("Enter");
    await box.type("second line");
    // Nothing was sent by Enter: the box holds both lines.
    expect(await box.inputValue()).toBe(`${first}\nsecond line`);
    expect(await lines(page, first).count()).toBe(0);
    expect(await page.locator(".chat-hint").textContent()).toBe("أرسل بالزر · Enter يبدأ سطرًا جديدًا");
    await page.locator(".chat-send").tap();
    const sent = lines(page, first).and(page.locator('[data-state="sent"]'));
    await sent.waitFor({ timeout: 5_000 });
    expect(await sent.locator(".chat-text").innerText()).toBe(`${first}\nsecond line`);
    expect(await box.inputValue()).toBe("");
  });

  it("on a phone, the back-to-top button steps aside while the message is typed, so a tap on Send sends (Arabic, 375 px)", async () => {
    const page = await newPage({ width: 375, height: 800, touch: true });
    await page.context().addCookies([{ name: "lang", value: "ar", url: baseURL() }]);
    await signIn(page.context(), DEMO_LOGINS.student.email, DEMO_LOGINS.student.password);
    await openChat(page, "/course/frontend-react");
    const box = page.locator(".chat-input");
    const send = page.locator(".chat-send");
    // The chat's Send at the bottom of the screen, where the back-to-top button sits (the page is far down).
    await send.evaluate((el) => {
      const r = el.getBoundingClientRect();
      window.scrollBy({ top: r.bottom - (window.innerHeight - 24), behavior: "instant" });
    });
    const backToTop = page.locator(".back-to-top");
    await backToTop.waitFor({ state: "visible" });
    const onSend = () =>
      send.evaluate((el) => {
        const r = el.getBoundingClientRect();
        // Every point of the button's far end (the button sits at the inline end, the left in Arabic).
        return [0.1, 0.5, 0.9].every((f) => el.contains(document.elementFromPoint(r.left + r.width * f, r.top + r.height / 2)));
      });
    expect(await onSend()).toBe(false);
    const text = unique("رسالة من الهاتف");
    await box.tap();
    await box.fill(text);
    expect(await backToTop.isVisible()).toBe(false);
    expect(await onSend()).toBe(true);
    await send.tap();
    await lines(page, text).and(page.locator('[data-state="sent"]')).waitFor({ timeout: 5_000 });
  });

  it("folds a long message to its first lines with Show more, which opens and folds it again", async () => {
    const page = await signedInPage(DEMO_LOGINS.student, 375);
    await openChat(page, "/course/frontend-react");
    const head = unique("Long notes");
    // 40 lines of about 30 characters: 1,200 characters, at 375 px several screens unfolded.
    const long = [head, ...Array.from({ length: 39 }, (_, i) => `line ${i + 2}: the flexbox notes`)].join("\n");
    await send(page, long);
    const line = lines(page, head);
    const text = line.locator(".chat-text");
    const more = line.getByRole("button", { name: "Show more" });
    expect(await more.getAttribute("aria-expanded")).toBe("false");
    expect(await more.getAttribute("aria-controls")).toBe(await text.getAttribute("id"));
    const folded = (await text.boundingBox())!.height;
    // Its first lines only: under ten of them (40 at 1.5 lines of text each would be far taller).
    expect(folded).toBeLessThan(300);
    await more.click();
    const open = line.getByRole("button", { name: "Show less" });
    expect(await open.getAttribute("aria-expanded")).toBe("true");
    expect((await text.boundingBox())!.height).toBeGreaterThan(folded * 3);
    await open.click();
    expect((await text.boundingBox())!.height).toBe(folded);
    // A short message has no such button.
    const short = unique("short one");
    await send(page, short);
    expect(await lines(page, short).getByRole("button", { name: "Show more" }).count()).toBe(0);
  });

  it("answers with Enter, adds lines with Shift+Enter, counts characters and quotes the message replied to", async () => {
    const nour = await signedInPage(DEMO_LOGINS.student);
    await openChat(nour, "/course/frontend-react");
    const box = nour.getByRole("textbox", { name: "Message" });
    await box.fill("first line");
    await box.press("Shift+Enter");
    await box.type("second");
    expect(await box.inputValue()).toBe("first line\nsecond");
    expect(await nour.locator(".chat-count").textContent()).toContain("17/2,000");

    const seeded = lines(nour, "Reminder: the profile card task is due on Sunday.");
    await seeded.hover();
    await seeded.getByRole("button", { name: "Reply to Ahmed Hassan" }).click();
    expect(await nour.locator(".chat-replying").textContent()).toContain("Replying to Ahmed Hassan");
    // The box says whom it answers to a screen reader too (its description).
    const describedBy = (await box.getAttribute("aria-describedby"))!.split(" ");
    expect(await nour.evaluate((ids) => ids.map((i) => document.getElementById(i)?.textContent ?? "").join(" "), describedBy)).toContain("Replying to Ahmed Hassan");
    const text = unique("مرحبا، سأسلّمها يوم السبت");
    await box.fill(text);
    await box.press("Enter");
    const reply = lines(nour, text);
    await reply.and(nour.locator('[data-state="sent"]')).waitFor();
    expect(await reply.locator(".chat-quote").textContent()).toContain("Reminder: the profile card task is due on Sunday.");
    expect(await reply.locator(".chat-text").getAttribute("dir")).toBe("auto");
    expect(await nour.locator(".chat-replying").count()).toBe(0);

    // Answering the message just sent, at the bottom of the list: the reply's bar makes the list shorter, and the
    // message stays whole in view above it (it was left half hidden under the composer).
    await reply.hover();
    await reply.getByRole("button", { name: "Reply to Nour Ali" }).click();
    await nour.locator(".chat-replying").waitFor();
    await expect
      .poll(() =>
        reply.evaluate((el) => {
          const box = el.closest(".chat-scroll")!.getBoundingClientRect();
          const own = el.getBoundingClientRect();
          return own.top >= box.top - 1 && own.bottom <= box.bottom + 1;
        }),
      )
      .toBe(true);
  });
});
