/**
 * Demo data (PRODUCT.md §7), inserted into an empty database in one atomic batch.
 * Idempotent: if the demo admin exists, nothing is written.
 */
import { eq } from "drizzle-orm";
import type { ServiceContext } from "../worker/context";
import { hashPassword } from "../worker/auth/password";
import { newId } from "../worker/services/ids";
import * as s from "./schema";
import { renderMarkdown } from "../app/lib/markdown.server";
import { armPublisher } from "../worker/services/publisher-client";

export const DEMO_ACCOUNTS = {
  admin: { email: "admin@example.com", password: "demo-admin-pass", name: "Mona Admin" },
  instructor: { email: "instructor@example.com", password: "demo-instructor-pass", name: "Ahmed Hassan" },
  student: { email: "student@example.com", password: "demo-student-pass", name: "Nour Ali" },
} as const;

const DAY = 86_400_000;

/** The demo graduate's certificate (Sara Mahmoud, Frontend Development with React): /certificates/SARA-MAHM-WEBD-RE26. */
export const DEMO_CERTIFICATE_CODE = "SARA-MAHM-WEBD-RE26";
const SCHEDULED_IN = 2 * 86_400_000;
const DEMO_ANNOUNCEMENT = "Each of you shows **five minutes** of your portfolio project on Thursday at 18:00.\n\n- Deploy it first\n- Bring one thing you would do differently";

export async function seedDemoData(ctx: ServiceContext): Promise<boolean> {
  const { db } = ctx;
  const existing = await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, DEMO_ACCOUNTS.admin.email)).limit(1);
  if (existing.length > 0) return false;

  const pepper = ctx.settings.passwordPepper;
  const now = Date.now();
  // Dates that make sense together: people register (and verify minutes later) before they ask to join, staff
  // decide after the request and before the group starts, lectures and chat come after that.
  const person = async (slug: string, name: string, email: string, password: string, role: s.Role, phone: string, country: string, daysAgo: number) => ({
    id: newId(),
    slug,
    name,
    email,
    passwordHash: await hashPassword(password, pepper),
    phoneNumber: phone,
    country,
    role,
    createdAt: new Date(now - daysAgo * DAY),
    emailVerifiedAt: new Date(now - daysAgo * DAY + 6 * 60_000),
  });
  const studentPass = DEMO_ACCOUNTS.student.password;
  const [admin, instructor, student, sara, omar, layla, youssef] = await Promise.all([
    person("mona-admin", DEMO_ACCOUNTS.admin.name, DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password, "admin", "+201001112223", "EG", 120),
    person("ahmed-hassan", DEMO_ACCOUNTS.instructor.name, DEMO_ACCOUNTS.instructor.email, DEMO_ACCOUNTS.instructor.password, "instructor", "+201001112224", "EG", 110),
    person("nour-ali", DEMO_ACCOUNTS.student.name, DEMO_ACCOUNTS.student.email, studentPass, "user", "+201001112225", "EG", 48),
    person("sara-mahmoud", "Sara Mahmoud", "sara@example.com", studentPass, "user", "+201001112226", "EG", 45),
    person("omar-khaled", "Omar Khaled", "omar@example.com", studentPass, "user", "+966501112227", "SA", 41),
    person("layla-ibrahim", "Layla Ibrahim", "layla@example.com", studentPass, "user", "+971501112228", "AE", 9),
    person("youssef-adel", "Youssef Adel", "youssef@example.com", studentPass, "user", "+212601112229", "MA", 33),
  ]);

  const group = (slug: string, title: string, description: string, startDate: string, status: s.GroupStatus, capacity: number) => ({
    id: newId(),
    slug,
    title,
    description,
    imageCourse: `/images/courses/${slug}.svg`,
    startDate,
    instructorId: instructor.id,
    status,
    capacity,
  });
  const frontend = group(
    "frontend-react",
    "Frontend Development with React",
    "Go from semantic HTML to production React apps: accessible layouts, modern CSS, TypeScript, state, data fetching and testing. You ship a portfolio project reviewed by your instructor.",
    "2026-11-01",
    "published",
    30,
  );
  const backend = group(
    "backend-node",
    "Backend Development with Node.js",
    "Design and build APIs with Node.js and TypeScript: HTTP, SQL databases, authentication, queues, testing and deployment to the edge.",
    "2027-01-10",
    "published",
    25,
  );
  const mobile = group(
    "mobile-flutter",
    "Mobile Apps with Flutter",
    "Build and publish cross-platform mobile apps with Flutter and Dart: layouts, navigation, state management, device APIs and store releases.",
    "2027-02-14",
    "published",
    20,
  );
  const devops = group("devops-foundations", "DevOps Foundations", "Linux, containers, CI/CD and observability.", "2027-04-01", "draft", 20);

  const outline = (groupId: string, items: [string, string][]) =>
    items.map(([title, body], order) => ({ id: newId(), groupId, title, body, order }));
  const contents = [
    ...outline(frontend.id, [
      ["Web foundations", "Semantic HTML, accessibility from day one, and how the browser renders a page.\n\n- Document structure and landmarks\n- Forms that work with a keyboard and a screen reader\n- DevTools for layout and network"],
      ["Modern CSS", "Flexbox, Grid, custom properties and logical properties for right-to-left layouts.\n\n```css\n.card { display: grid; gap: 1rem; padding-inline: 1.5rem; }\n```"],
      ["JavaScript and TypeScript", "The language in depth: modules, async code, types that catch bugs before your users do."],
      ["React in practice", "Components, state, effects, forms, routing and data loading. Testing with Vitest and Testing Library."],
      ["Capstone project", "Build, test and deploy a real product with a team, reviewed like a pull request at work."],
    ]),
    ...outline(backend.id, [
      ["HTTP and APIs", "Requests, responses, status codes and designing an API people enjoy using."],
      ["Data and SQL", "Modelling, migrations, indexes and transactions with SQLite and PostgreSQL."],
      ["Security", "Password hashing, sessions, tokens, rate limits and the OWASP top ten."],
      ["Shipping", "Tests, CI, observability and deploying to the edge."],
    ]),
    ...outline(mobile.id, [
      ["Dart essentials", "Types, null safety, async and collections."],
      ["Flutter UI", "Widgets, layouts, theming and right-to-left support."],
      ["State and data", "State management, HTTP, local storage and offline use."],
      ["Publishing", "Builds, signing and releasing to the stores."],
    ]),
  ];

  /** Asked `requestedDaysAgo`, decided (unless pending) `decidedDaysAgo`: always after the request. */
  const membership = (user: { id: string }, groupId: string, status: s.MembershipStatus, requestedDaysAgo: number, decidedDaysAgo: number | null, requestMessage: string | null = null) => ({
    id: newId(),
    userId: user.id,
    groupId,
    status,
    requestMessage,
    createdAt: new Date(now - requestedDaysAgo * DAY),
    decidedBy: decidedDaysAgo === null ? null : instructor.id,
    decidedAt: decidedDaysAgo === null ? null : new Date(now - decidedDaysAgo * DAY + 3 * 3_600_000),
    joinedAt: decidedDaysAgo === null || !s.MEMBER_STATUSES.includes(status) ? null : new Date(now - decidedDaysAgo * DAY + 3 * 3_600_000),
  });
  const members = [
    membership(student, frontend.id, "approved", 40, 38),
    membership(student, backend.id, "pending", 2, null, "I finished the frontend track and want to learn APIs."),
    membership(sara, frontend.id, "approved", 39, 37),
    membership(omar, frontend.id, "special", 36, 34, "I was offered a scholarship seat by my university."),
    membership(layla, backend.id, "pending", 1, null, "Can I join the January cohort?"),
    membership(youssef, backend.id, "approved", 30, 27),
  ];

  const lecture = (groupId: string, slug: string, title: string, body: string, startsAt: number) => ({
    id: newId(),
    groupId,
    slug,
    title,
    body,
    videoUrl: null,
    resources: [{ title: "MDN Web Docs", url: "https://developer.mozilla.org/" }],
    startsAt: new Date(startsAt),
    // 0: the lectures follow their dates until staff reorder them (ADR 0012).
    order: 0,
    published: true,
  });
  const l1 = lecture(frontend.id, "html-foundations", "HTML and accessibility foundations", "## Today\n\nLandmarks, headings, forms and labels. Why a `<button>` beats a `<div>`.\n\n```html\n<button type=\"button\" aria-expanded=\"false\">Menu</button>\n```\n\n1. Structure the page with landmarks\n2. Label every form field\n3. Test with the keyboard only", now - 14 * DAY);
  const l2 = lecture(frontend.id, "modern-css-layouts", "Modern CSS layouts", "## Grid and Flexbox by example\n\nLogical properties keep one stylesheet right in Arabic and English.\n\n```css\n.card {\n  display: grid;\n  gap: 1rem;\n  padding-inline: 1.5rem;\n}\n```", now - 7 * DAY);
  // Happening now: its attendance is open after `npm start`, so the projector view is alive.
  const l3 = lecture(frontend.id, "react-components", "React components and state", "## Thinking in components\n\nProps flow down, events flow up.\n\n```jsx\nfunction Counter() {\n  const [count, setCount] = useState(0);\n  return <button onClick={() => setCount(count + 1)}>{count}</button>;\n}\n```", now - 10 * 60_000);
  const l4 = { ...lecture(frontend.id, "react-data-fetching", "Loading data in React", "Loaders, suspense and error states.", now + 5 * DAY), published: false };
  const b1 = lecture(backend.id, "http-basics", "HTTP from the ground up", "Methods, status codes, headers and caching.", Date.parse("2027-01-10T17:00:00Z"));
  const b2 = lecture(backend.id, "node-first-api", "Your first API with Node.js", "Routing, validation and JSON answers.", Date.parse("2027-01-14T17:00:00Z"));
  const m1 = lecture(mobile.id, "dart-essentials", "Dart essentials", "Types, null safety and async code.", Date.parse("2027-02-14T16:00:00Z"));
  const m2 = lecture(mobile.id, "flutter-first-screen", "Your first Flutter screen", "Widgets, layout and right-to-left support.", Date.parse("2027-02-18T16:00:00Z"));
  const liveSession = { id: newId(), lectureId: l3.id, opensAt: new Date(now - 5 * 60_000), closesAt: new Date(now + 12 * 3_600_000), rotateSeconds: 30, lateAfterMinutes: 15, createdBy: instructor.id };

  // A rubric of the demo group (issue 21), on the profile-card task: its best levels add up to the task's 100 points.
  const level = (title: string, points: number, description = "") => ({ title, description, points });
  const profileRubric = {
    id: newId(),
    groupId: frontend.id,
    title: "Accessible component",
    criteria: [
      { id: "semantics", title: "Semantic HTML", description: "Landmarks, headings and native elements", levels: [level("Excellent", 40, "Every part uses the right element"), level("Good", 32, "One or two generic elements"), level("Partial", 16, "Mostly divs and spans"), level("Missing", 0)] },
      { id: "keyboard", title: "Keyboard", description: "Reachable and visible focus", levels: [level("Excellent", 30, "Every control reachable, focus always visible"), level("Good", 22, "Reachable, focus hard to see"), level("Partial", 10, "Some controls unreachable"), level("Missing", 0)] },
      { id: "screen-reader", title: "Screen reader", description: "Names, roles and reading order", levels: [level("Excellent", 30, "Reads in order with clear names"), level("Good", 22, "A name or two missing"), level("Partial", 10, "Hard to follow"), level("Missing", 0)] },
    ],
    createdAt: new Date(now - 20 * DAY),
    updatedAt: new Date(now - 20 * DAY),
  };
  const t1 = { id: newId(), lectureId: l1.id, slug: "accessible-profile-card", title: "Build an accessible profile card", body: "Build a profile card with semantic HTML. It must work with a keyboard and read well in a screen reader. Submit the repository link.", dueAt: new Date(now - 10 * DAY), maxScore: 100, allowLate: true, rubricId: profileRubric.id };
  const t2 = { id: newId(), lectureId: l2.id, slug: "responsive-landing-page", title: "Responsive landing page", body: "Recreate the landing page from the design using Grid and Flexbox. It must work from 375 px to desktop, in English and Arabic.", dueAt: new Date(now + 3 * DAY), maxScore: 100, allowLate: false, gradesHeld: true };

  // Two code exercises (issue "Code exercises"): tests run in the Worker's sandbox when a student hands in.
  const t3 = { id: newId(), lectureId: l3.id, slug: "slugify-titles", title: "Code exercise: slugify a title", body: "Write `slugify(title)`: it turns a lecture title into the last part of its address.\n\n- lower case only\n- words joined by one `-`\n- no punctuation, no spaces at the ends\n\n```js\nslugify(\"Hello World\") // \"hello-world\"\n```", dueAt: new Date(now + 5 * DAY), maxScore: 100, allowLate: true };
  const t4 = { id: newId(), lectureId: l3.id, slug: "chunk-a-list", title: "Code exercise: split a list into rows", body: "A grid of cards shows `size` cards per row. Write `chunk(items, size)`: it returns the rows, the last one possibly shorter.\n\n```js\nchunk([1, 2, 3, 4, 5], 2) // [[1, 2], [3, 4], [5]]\n```", dueAt: new Date(now + 6 * DAY), maxScore: 100, allowLate: true };
  const test = (name: string, call: string, expected: string, points: number, hidden = false) => ({ name, call, expected, points, hidden });
  const slugifyReference = 'function slugify(title) {\n  return title\n    .toLowerCase()\n    .replace(/[^a-z0-9\\s-]/g, "")\n    .trim()\n    .split(/[\\s-]+/)\n    .filter(Boolean)\n    .join("-");\n}\n';
  const exerciseRows = [
    {
      taskId: t3.id,
      language: "javascript" as const,
      starterCode: "// Turn a title into a URL slug: lower case, words joined by \"-\".\nfunction slugify(title) {\n  \n}\n",
      tests: [
        test("lower-cases and joins words", 'slugify("Hello World")', '"hello-world"', 2),
        test("trims the ends", 'slugify("  React Hooks  ")', '"react-hooks"', 2),
        test("drops punctuation", 'slugify("What\'s new in CSS?")', '"whats-new-in-css"', 3, true),
        test("collapses repeated spaces and dashes", 'slugify("Grid -- and   Flexbox")', '"grid-and-flexbox"', 3, true),
      ],
      timeMs: 1000,
      memoryMb: 16,
      referenceSolution: slugifyReference,
      published: true,
      verifiedAt: new Date(now - 2 * DAY),
      updatedAt: new Date(now - 2 * DAY),
    },
    {
      taskId: t4.id,
      language: "javascript" as const,
      starterCode: "// Split items into rows of `size` (the last row may be shorter).\nfunction chunk(items, size) {\n  \n}\n",
      tests: [
        test("splits evenly", "chunk([1, 2, 3, 4], 2)", "[[1, 2], [3, 4]]", 2),
        test("keeps the remainder in a last row", "chunk([1, 2, 3, 4, 5], 2)", "[[1, 2], [3, 4], [5]]", 2),
        test("an empty list has no rows", "chunk([], 3)", "[]", 3, true),
        test("a size larger than the list", 'chunk(["a", "b"], 5)', '[["a", "b"]]', 3, true),
      ],
      timeMs: 1000,
      memoryMb: 16,
      referenceSolution: "function chunk(items, size) {\n  const rows = [];\n  for (let i = 0; i < items.length; i += size) rows.push(items.slice(i, i + size));\n  return rows;\n}\n",
      published: true,
      verifiedAt: new Date(now - 2 * DAY),
      updatedAt: new Date(now - 2 * DAY),
    },
  ];
  // Sara solved the first one; the report is what the sandbox answers for this code.
  const passed = (name: string, points: number, hidden: boolean, value: string) => ({ name, points, hidden, passed: true, actual: value, expected: value, output: "", ms: 2 });
  const saraReport = {
    results: [
      passed("lower-cases and joins words", 2, false, '"hello-world"'),
      passed("trims the ends", 2, false, '"react-hooks"'),
      passed("drops punctuation", 3, true, '"whats-new-in-css"'),
      passed("collapses repeated spaces and dashes", 3, true, '"grid-and-flexbox"'),
    ],
    score: 10,
    maxScore: 10,
    ms: 9,
  };

  const subs = [
    { id: newId(), taskId: t1.id, userId: student.id, link: "https://github.com/nour-ali/profile-card", notes: "Tested with VoiceOver and keyboard only.", submittedAt: new Date(now - 11 * DAY), late: false, score: 92, feedback: "Great semantics. Add a visible focus style to the links.", gradedBy: instructor.id, gradedAt: new Date(now - 9 * DAY), rubric: { rubricId: profileRubric.id, title: profileRubric.title, criteria: profileRubric.criteria.map((c, i) => ({ ...c, chosen: [0, 1, 0][i]! })) } },
    { id: newId(), taskId: t1.id, userId: sara.id, link: "https://github.com/sara-m/profile-card", notes: null, submittedAt: new Date(now - 9 * DAY - 3_600_000), late: true, score: null, feedback: null, gradedBy: null, gradedAt: null },
    // Graded but held: the landing-page task holds its grades until staff release them (ADR 0021), so Omar still sees
    // "handed in" and the grader offers "Release 1 grade".
    { id: newId(), taskId: t2.id, userId: omar.id, link: "https://omar-landing.pages.dev", notes: "Checked at 375 px and in Arabic.", submittedAt: new Date(now - DAY), late: false, score: 88, feedback: "Solid grid work. The hero image needs an `alt` text in both languages.", gradedBy: instructor.id, gradedAt: new Date(now - DAY / 2) },
    { id: newId(), taskId: t3.id, userId: sara.id, link: "", notes: null, code: slugifyReference, report: saraReport, submittedAt: new Date(now - 3 * 60_000), late: false, score: 100, testsScore: 100, feedback: null, gradedBy: null, gradedAt: new Date(now - 3 * 60_000) },
  ];

  const quiz = { id: newId(), lectureId: l2.id, groupId: frontend.id, slug: "css-layouts-check", title: "CSS layouts check", description: "Five minutes on Flexbox, Grid and logical properties.", durationMinutes: 10, opensAt: new Date(now - 7 * DAY), closesAt: new Date(now + 7 * DAY), maxAttempts: 2, showAnswers: "after-submit" as const, published: true };
  const q = (text: string, type: (typeof s.QUESTION_TYPES)[number], options: string[], correct: (number | string)[], order: number, points = 1) => ({ id: newId(), quizId: quiz.id, text, type, options, correct, points, order });
  const columnsReference = "function columns(width) {\n  return Math.max(1, Math.floor(width / 300));\n}\n";
  // The demo group's question bank (issue 21) and a quiz that draws from it: three hooks questions per attempt, the
  // questions and their options shuffled for each student.
  const bank = (text: string, options: string[], correct: number, tags: string[]) => ({ id: newId(), groupId: frontend.id, text, type: "single" as const, options, correct: [correct], points: 1, tags, createdAt: new Date(now - 20 * DAY), updatedAt: new Date(now - 20 * DAY) });
  const bankRows = [
    bank("Which hook keeps a value between renders and re-renders when it changes?", ["`useRef`", "`useState`", "`useMemo`", "`useId`"], 1, ["hooks"]),
    bank("Which hook runs code after React has updated the page?", ["`useEffect`", "`useState`", "`useContext`", "`useId`"], 0, ["hooks"]),
    bank("Where may hooks be called?", ["Inside loops", "In conditions", "At the top level of a component or custom hook", "In event handlers only"], 2, ["hooks"]),
    bank("What does an empty dependency list (`[]`) make an effect do?", ["Run after every render", "Run once after the first render", "Never run", "Run before rendering"], 1, ["hooks"]),
    bank("Which hook reads a value from the nearest provider?", ["`useReducer`", "`useContext`", "`useRef`", "`useEffect`"], 1, ["hooks"]),
    bank("Which hook keeps a value between renders without re-rendering when it changes?", ["`useRef`", "`useState`", "`useEffect`", "`useContext`"], 0, ["hooks"]),
    bank("Which unit is relative to the root element's font size?", ["`em`", "`rem`", "`px`", "`vh`"], 1, ["css"]),
    bank("Which property sets the space between grid tracks?", ["`margin`", "`padding`", "`gap`", "`border-spacing`"], 2, ["css"]),
  ];
  const drawnQuiz = { id: newId(), lectureId: l3.id, groupId: frontend.id, slug: "react-hooks-draw", title: "React hooks: drawn check", description: "Three questions drawn for you from the group's bank, in your own order.", durationMinutes: 10, opensAt: new Date(now - DAY), closesAt: new Date(now + 10 * DAY), maxAttempts: 1, showAnswers: "after-close" as const, published: true, draws: [{ tag: "hooks", count: 3, points: 1 }], shuffleQuestions: true, shuffleOptions: true };

  const quizQuestions = [
    q("Which property turns an element into a grid container?", "single", ["`display: flex`", "`display: grid`", "`position: grid`", "`grid: on`"], [1], 1),
    q("Which of these are logical properties that flip in right-to-left layouts?", "multiple", ["`margin-inline-start`", "`padding-left`", "`inset-inline-end`", "`border-right`"], [0, 2], 2, 2),
    q("`gap` works in both Flexbox and Grid.", "true-false", ["True", "False"], [0], 3),
    q("Complete the declaration so items wrap onto new lines:\n\n```css\n.row { display: flex; flex-wrap: ____; }\n```", "short-text", [], ["wrap"], 4),
    {
      ...q("A card grid shows as many 300 px columns as fit, and always at least one. Write `columns(width)`:\n\n```js\ncolumns(1280) // 4\n```", "code", [], [columnsReference], 5, 2),
      code: {
        starterCode: "function columns(width) {\n  \n}\n",
        tests: [
          { name: "a desktop", call: "columns(1280)", expected: "4", points: 1, hidden: true },
          { name: "a phone", call: "columns(375)", expected: "1", points: 1, hidden: true },
          { name: "narrower than a column", call: "columns(200)", expected: "1", points: 1, hidden: true },
          { name: "an exact fit", call: "columns(900)", expected: "3", points: 1, hidden: true },
        ],
        timeMs: 1000,
        memoryMb: 16,
      },
    },
  ];
  const attemptRow = { id: newId(), quizId: quiz.id, userId: sara.id, answers: { [quizQuestions[0]!.id]: 1, [quizQuestions[1]!.id]: [0, 2], [quizQuestions[2]!.id]: 0, [quizQuestions[3]!.id]: "wrap", [quizQuestions[4]!.id]: columnsReference }, verdicts: { [quizQuestions[4]!.id]: true }, score: 7, maxScore: 7, number: 1, startedAt: new Date(now - 6 * DAY), deadlineAt: new Date(now - 6 * DAY + 600_000), savedAt: new Date(now - 6 * DAY + 230_000), submittedAt: new Date(now - 6 * DAY + 240_000) };

  const mark = (lectureId: string, user: { id: string }, status: (typeof s.ATTENDANCE_STATUSES)[number], at: number) => ({ id: newId(), lectureId, userId: user.id, status, method: "code" as const, markedAt: new Date(at), markedBy: null });
  const attendanceRows = [
    mark(l1.id, student, "present", now - 14 * DAY),
    mark(l1.id, sara, "present", now - 14 * DAY),
    mark(l1.id, omar, "late", now - 14 * DAY + 900_000),
    mark(l2.id, student, "present", now - 7 * DAY),
    mark(l2.id, sara, "excused", now - 7 * DAY),
    mark(l3.id, sara, "present", now - 4 * 60_000),
  ];

  const chat: [typeof student, string][] = [
    [instructor, "Welcome to the React cohort! Introduce yourselves here."],
    [student, "Hi everyone, I'm Nour from Alexandria."],
    [sara, "Sara from Cairo. Excited to start!"],
    [instructor, "Reminder: the profile card task is due on Sunday."],
    [omar, "Is the recording of the CSS lecture up?"],
  ];
  const chatRows = chat.map(([author, text], i) => ({ groupId: frontend.id, authorId: author.id, text, createdAt: new Date(now - (10 - i) * DAY) }));

  const fb = (userId: string | null, name: string, email: string, groupSlug: string, userFeedback: string, rating: number, daysAgo: number) => ({ id: newId(), userId, name, email, groupSlug, userFeedback, rating, createdAt: new Date(now - daysAgo * DAY) });
  const feedbackRows = [
    fb(student.id, student.name, student.email, "frontend-react", "The instructor reviews every task like a real code review. I learned more in six weeks than in a year alone.", 5, 3),
    fb(sara.id, sara.name, sara.email, "frontend-react", "Live attendance and the group chat keep everyone on track. The Arabic interface helped my family follow my progress.", 5, 5),
    fb(omar.id, omar.name, omar.email, "frontend-react", "Great projects. I would love a few more recorded sessions.", 4, 8),
    fb(null, "Hana Mostafa", "hana@example.com", "backend-node", "The security module was eye-opening: hashing, sessions and rate limits explained with real code.", 5, 40),
    fb(null, "Karim Youssef", "karim@example.com", "mobile-flutter", "I published my first app to the store at the end of the course.", 4, 60),
  ];

  await db.batch([
    db.insert(s.users).values([admin, instructor, student, sara, omar, layla, youssef]),
    db.insert(s.groups).values([frontend, backend, mobile, devops]),
    db.insert(s.courseContents).values(contents),
    db.insert(s.memberships).values(members),
    db.insert(s.lectures).values([l1, l2, l3, l4, b1, b2, m1, m2]),
    db.insert(s.attendanceSessions).values(liveSession),
    db.insert(s.rubrics).values(profileRubric),
    db.insert(s.tasks).values([t1, t2, t3, t4]),
    db.insert(s.exercises).values(exerciseRows),
    db.insert(s.submissions).values(subs),
    db.insert(s.quizzes).values([quiz, drawnQuiz]),
    db.insert(s.bankQuestions).values(bankRows),
    db.insert(s.questions).values(quizQuestions),
    db.insert(s.attempts).values(attemptRow),
    // Extensions (issue 21): the demo student has three more days on the list exercise and five more minutes on
    // the layouts quiz; both show on her pages and in the staff's edit pages.
    db.insert(s.extensions).values([
      { id: newId(), userId: student.id, taskId: t4.id, dueAt: new Date(now + 9 * DAY), grantedBy: instructor.id, createdAt: new Date(now - DAY) },
      { id: newId(), userId: student.id, quizId: quiz.id, extraMinutes: 5, grantedBy: instructor.id, createdAt: new Date(now - DAY) },
    ]),
    db.insert(s.attendance).values(attendanceRows),
    db.insert(s.messages).values(chatRows),
    db.insert(s.feedback).values(feedbackRows),
    // Each notification leads to a page that shows what it announces.
    db.insert(s.notifications).values([
      { id: newId(), userId: student.id, kind: "join-decision", title: `You're in! Your request to join ${frontend.title} was approved`, params: { group: frontend.title, variant: "approved" }, link: `/course/${frontend.slug}`, createdAt: new Date(now - 38 * DAY + 3 * 3_600_000), readAt: new Date(now - 37 * DAY) },
      { id: newId(), userId: instructor.id, kind: "join-request", title: `${layla.name} asked to join ${backend.title}`, params: { name: layla.name, group: backend.title }, link: "/instructor/email-request", createdAt: new Date(now - DAY) },
      { id: newId(), userId: instructor.id, kind: "join-request", title: `${student.name} asked to join ${backend.title}`, params: { name: student.name, group: backend.title }, link: "/instructor/email-request", createdAt: new Date(now - 2 * DAY) },
    ]),
    // Issue 22: the completion rule of the demo group and its graduate's certificate (Sara meets it: every lecture
    // she could attend, full marks), an announcement pinned for the members, and a task scheduled to show in two days.
    db.update(s.groups).set({ completionOverall: 70, completionAttendance: 80 }).where(eq(s.groups.id, frontend.id)),
    db.insert(s.certificates).values({
      id: newId(),
      code: DEMO_CERTIFICATE_CODE,
      groupId: frontend.id,
      userId: sara.id,
      recipientName: sara.name,
      courseTitle: frontend.title,
      instructorName: instructor.name,
      startsOn: frontend.startDate,
      endsOn: new Date(now - 4 * 60_000).toISOString().slice(0, 10),
      language: "en",
      issuedAt: new Date(now - 60_000),
      issuedBy: instructor.id,
    }),
    db.insert(s.announcements).values({
      id: newId(),
      groupId: frontend.id,
      authorId: instructor.id,
      title: "Demo day on Thursday",
      body: DEMO_ANNOUNCEMENT,
      bodyHtml: renderMarkdown(DEMO_ANNOUNCEMENT),
      createdAt: new Date(now - DAY),
    }),
    db.insert(s.tasks).values({
      id: newId(),
      lectureId: l3.id,
      slug: "code-review-checklist",
      title: "Review a classmate's pull request",
      body: "Review one pull request of a classmate with the checklist from the lecture. Hand in the link to your review.",
      dueAt: new Date(now + 9 * DAY),
      maxScore: 20,
      publishAt: new Date(now + SCHEDULED_IN),
    }),
    db.insert(s.contactMessages).values([
      { id: newId(), name: "Mariam Samir", email: "mariam@example.com", message: "Do you offer weekend groups for working students?", createdAt: new Date(now - 2 * DAY) },
      { id: newId(), name: "Tarek Nabil", email: "tarek@example.com", message: "Is there a discount for university students?", createdAt: new Date(now - DAY), readAt: new Date(now - DAY / 2) },
    ]),
  ]);
  // The scheduled task shows itself on time: the group's Publisher rings then (npm start does not run crons).
  await armPublisher(ctx, frontend.id, now + SCHEDULED_IN);
  return true;
}
