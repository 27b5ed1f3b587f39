import { readdirSync } from "node:fs";

// `npm run attack`: replays the hardening findings (issue "Hardening what exists") and the integrity findings
// (scripts/attacks/*.mjs: the code runner, attendance, quizzes, smaller ones) against a running local server
// (`npm start`, PORT as for it) and checks each gets its 4xx or closed socket. Loopback only; bounded; it uses the
// demo student and fresh accounts it registers itself (codes from the development mailbox).
const port = Number(process.env.PORT ?? 8787);
const origin = `http://127.0.0.1:${port}`;
const results = [];

function check(name, ok, detail = "") {
  results.push({ name, ok });
  console.log(`${ok ? "ok  " : "FAIL"}  ${name}${detail ? `  (${detail})` : ""}`);
}

const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

async function api(path, { body, token, ip = randomIp(), method } = {}) {
  const headers = { "cf-connecting-ip": ip, origin };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = token;
  return fetch(`${origin}${path}`, { method: method ?? (body === undefined ? "GET" : "POST"), headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual" });
}

function page(path, body, { contentType = "application/x-www-form-urlencoded", from = origin, cookie } = {}) {
  const headers = { accept: "text/html" };
  if (contentType) headers["content-type"] = contentType;
  if (from) headers.origin = from;
  if (cookie) headers.cookie = cookie;
  return fetch(`${origin}${path}`, { method: "POST", headers, body, redirect: "manual" });
}

async function latestCode(email) {
  for (let i = 0; i < 40; i++) {
    const mails = await (await fetch(`${origin}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json();
    const code = mails[0]?.text.match(/\b(\d{6})\b/)?.[1];
    if (code && mails.length > (latestCode.seen.get(email) ?? 0)) {
      latestCode.seen.set(email, mails.length);
      return code;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code mailed to ${email}`);
}
latestCode.seen = new Map();

async function freshAccount() {
  const email = `attack-${Date.now()}-${Math.floor(Math.random() * 1e6)}@attack.example`;
  const password = "attack-password-1";
  await api("/api/users/register", { body: { name: "Attack Target", email, password, phone_number: "+201001234567" } });
  await api("/api/users/verify-email", { body: { email, code: await latestCode(email) } });
  return { email, password };
}

async function signIn(account) {
  const res = await api("/api/users/login", { body: account });
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  return { token: (await res.json()).accessToken, cookie };
}

function openSocket(url) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers: { origin } });
    const state = { ws, closed: null, frames: [] };
    ws.addEventListener("message", (e) => state.frames.push(JSON.parse(String(e.data))));
    ws.addEventListener("close", (e) => (state.closed = e.code));
    ws.addEventListener("open", () => resolve(state));
    ws.addEventListener("error", () => resolve(state));
  });
}

async function main() {
  // 1. Open redirects after login and through the language switch.
  const student = { email: "student@example.com", password: "demo-student-pass" };
  for (const target of ["/%09/evil.example", "/\t/evil.example", "/%0d%0a/evil.example", "/%00/evil.example", "/%E2%80%AE/evil.example"]) {
    const res = await page("/auth/login", new URLSearchParams({ ...student, redirectTo: target }));
    // Refused targets fall back to the student's own home: the demo student's only course.
    check(`login redirectTo=${JSON.stringify(target)} stays on the site`, res.status === 302 && res.headers.get("location") === "/course/frontend-react", `${res.status} ${res.headers.get("location")}`);
    const lang = await page("/set-language", new URLSearchParams({ lang: "en", redirectTo: target }));
    check(`language switch redirectTo=${JSON.stringify(target)} stays on the site`, lang.headers.get("location") === "/", `${lang.status} ${lang.headers.get("location")}`);
  }

  // 2. A revoked session's sockets close.
  const account = await freshAccount();
  const session = await signIn(account);
  const me = await (await api("/api/users/profile", { token: session.token })).json();
  const userId = me.user?._id ?? me._id;
  const { ticket } = await (await api("/api/realtime/ticket", { body: { party: "user-hub", room: userId }, token: session.token })).json();
  const socket = await openSocket(`${origin.replace("http", "ws")}/parties/user-hub/${userId}?ticket=${encodeURIComponent(ticket)}`);
  const out = await fetch(`${origin}/api/users/logout`, { method: "POST", headers: { origin, cookie: session.cookie } });
  check("logout answers 200", out.status === 200, String(out.status));
  // The server starts the close handshake; through wrangler's local proxy the client may stay in CLOSING (2).
  for (let i = 0; i < 30 && socket.closed === null && socket.ws.readyState < 2; i++) await new Promise((r) => setTimeout(r, 100));
  check("the session is revoked", (await api("/api/users/profile", { token: session.token })).status === 401);
  check("the socket opened under the session", socket.frames.some((f) => f.type === "welcome"), JSON.stringify(socket.frames[0] ?? null));
  check("logout closes the session's socket", (socket.closed ?? 4401) >= 4400 && socket.ws.readyState >= 2, `readyState ${socket.ws.readyState}, close code ${socket.closed ?? "pending"}`);

  // 3. Page actions: bodies that are not forms, foreign Origins, oversized forms.
  for (const [label, type, body, want] of [
    ["JSON", "application/json", '{"a":1}', 415],
    ["text/plain", "text/plain", "a=1", 415],
    ["no content type", null, "a=1", 415],
    ["multipart without boundary", "multipart/form-data", "--x\r\n", 415],
    ["truncated multipart", "multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nno-end', 400],
  ]) {
    const res = await page("/contact", body, { contentType: type });
    check(`a ${label} body to a page action answers ${want}`, res.status === want, String(res.status));
  }
  const foreign = await page("/auth/logout", "", { from: "https://evil.example", cookie: (await signIn(account)).cookie });
  check("a foreign Origin is refused with 403", foreign.status === 403, String(foreign.status));
  const big = await page("/contact", new URLSearchParams({ message: "x".repeat(200 * 1024) }));
  check("a 200 KB form is refused with 413", big.status === 413, String(big.status));

  // 4. Invisible names and chat text.
  const invisible = await api("/api/users/register", { body: { name: "\u200b\u202e", email: `inv-${Date.now()}@attack.example`, password: "attack-password-1", phone_number: "+201001234567" } });
  check("a name that shows nothing is refused with 400", invisible.status === 400, String(invisible.status));

  // 5. Lockout as a weapon: a stranger's wrong codes do not keep the owner out.
  const owner = await freshAccount();
  const stranger = randomIp();
  for (let i = 0; i < 11; i++) await api("/api/users/reset-password", { body: { email: owner.email, resetCode: String(100000 + i), newPassword: "stranger-password" }, ip: stranger });
  await api("/api/users/forgot-password", { body: { email: owner.email } });
  const reset = await api("/api/users/reset-password", { body: { email: owner.email, resetCode: await latestCode(owner.email), newPassword: "owner-password-2" } });
  check("the owner's freshly mailed code works after a stranger's 11 wrong codes", reset.status === 200, String(reset.status));
  const wrongLogins = await Promise.all(Array.from({ length: 10 }, () => api("/api/users/login", { body: { email: owner.email, password: "wrong-password-x" } })));
  const ownerLogin = await api("/api/users/login", { body: { email: owner.email, password: "owner-password-2" } });
  check("10 wrong passwords from 10 addresses do not lock the owner's login", wrongLogins.every((r) => r.status === 401) && ownerLogin.status === 200, String(ownerLogin.status));

  // 6. CSP: websockets to this site only.
  const csp = (await fetch(`${origin}/`)).headers.get("content-security-policy") ?? "";
  const connect = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("connect-src")) ?? "";
  check("CSP connect-src names no foreign host", !/\bwss?:(?!\/\/)/.test(connect) && !connect.includes("*"), connect);

  // 7. Integrity under hostile students (issue "Integrity under hostile students"): one module per area.
  const tools = { origin, api, page, check, signIn, freshAccount, latestCode, openSocket, randomIp };
  for (const file of readdirSync(new URL("./attacks/", import.meta.url)).filter((f) => f.endsWith(".mjs")).sort()) {
    console.log(`\n# ${file.replace(/\.mjs$/, "")}`);
    const { default: replay } = await import(new URL(`./attacks/${file}`, import.meta.url));
    try {
      await replay(tools);
    } catch (e) {
      check(`${file}: the replay ran to the end`, false, e instanceof Error ? e.message : String(e));
    }
  }

  const failed = results.filter((r) => !r.ok).length;
  console.log(`\n${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

await main().catch((e) => {
  console.error(`attack replay stopped: ${e.message}. Is \`npm start\` running on port ${port}?`);
  process.exitCode = 1;
});
