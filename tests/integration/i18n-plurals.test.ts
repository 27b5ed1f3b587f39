/**
 * Plurals and digits in the dictionaries (issue 20, "Language and formats"): every message that counts something
 * chooses its words by the language's plural rules (Arabic has six forms: zero, one, two, few, many, other), and
 * every number is written with Latin digits in both languages. Each pluralised message is rendered for 0, 1, 2, 3,
 * 11 and 100 in English and Arabic; a handful are checked word for word.
 */
import { describe, expect, it } from "vitest";
import { ar } from "../../app/i18n/ar";
import { LOCALES } from "../../app/i18n/config";
import { en, type MessageKey, type Messages } from "../../app/i18n/en";
import { format, formatMessage, formatNumber, formatPercent, langOf } from "../../app/i18n/translate";
import { notificationText } from "../../app/lib/notification-text";
import { resetMail, verificationMail } from "../../worker/services/accounts-mail";

const COUNTS = [0, 1, 2, 3, 11, 100];
const ARABIC_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/;
const dictionaries = { en, ar } as const;
const keys = Object.keys(en) as MessageKey[];

/** Every parameter a message names, plain (`{x}`) or counted (`{x, plural, ...}`). */
const paramsOf = (text: string) => new Set([...text.matchAll(/\{\s*(\w+)\s*(?:,\s*plural\s*,|\})/g)].map((m) => m[1]!));
/** The parameters a message counts with a plural. */
const pluralsOf = (text: string) => new Set([...text.matchAll(/\{\s*(\w+)\s*,\s*plural\s*,/g)].map((m) => m[1]!));
const sorted = (set: Set<string>) => [...set].sort();
const pluralKeys = keys.filter((k) => en[k].includes("plural") || ar[k].includes("plural"));

describe("the two dictionaries", () => {
  it("have the same keys, each naming the same parameters and counting the same ones", () => {
    expect(Object.keys(ar).sort()).toEqual([...keys].sort());
    for (const k of keys) {
      expect({ k, params: sorted(paramsOf(ar[k])) }).toEqual({ k, params: sorted(paramsOf(en[k])) });
      expect({ k, plurals: sorted(pluralsOf(ar[k])) }).toEqual({ k, plurals: sorted(pluralsOf(en[k])) });
    }
  });

  it("each say which language they are in, and that is the language their numbers and plurals follow", () => {
    expect(langOf(en)).toBe("en");
    expect(langOf(ar)).toBe("ar");
    expect(LOCALES).toEqual({ en: "en-GB", ar: "ar-EG-u-nu-latn" });
    // Without `-u-nu-latn` this runtime writes Egyptian Arabic with Arabic-Indic digits: the suffix is what keeps them out.
    expect(new Intl.NumberFormat("ar-EG").format(2026)).toMatch(ARABIC_DIGITS);
    expect(new Intl.DateTimeFormat(LOCALES.ar, { year: "numeric", timeZone: "UTC" }).format(new Date("2026-06-01T00:00:00Z"))).toBe("2026");
  });

  it("are the only way the code names an Arabic locale: no \"ar-EG\" and no runtime-default toLocale*String() elsewhere", () => {
    // An Arabic locale written out (it would bring Arabic-Indic digits back), or the runtime's default locale.
    const FORBIDDEN = [/["'`]ar-[A-Z]{2}["'`]/, /Intl\.\w+\(\s*\[?\s*["'`]ar\b/, /toLocale\w*\(\s*["'`]ar\b/, /toLocale(Date|Time)?String\(\s*\)/];
    const sources = import.meta.glob(["../../app/**/*.{ts,tsx}", "../../worker/**/*.ts"], { query: "?raw", import: "default", eager: true }) as Record<string, string>;
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    const offenders = Object.entries(sources)
      .filter(([path, text]) => !path.endsWith("/app/i18n/config.ts") && FORBIDDEN.some((re) => re.test(text)))
      .map(([path]) => path);
    expect(offenders).toEqual([]);
  });

  it("hold no Arabic-Indic digit (numbers in Arabic text are written 0-9 too)", () => {
    for (const k of keys) expect({ k, text: ar[k] }).not.toMatchObject({ text: expect.stringMatching(ARABIC_DIGITS) });
  });

  it("give every Arabic plural all six forms, and every English plural `other`", () => {
    expect(pluralKeys.length).toBeGreaterThanOrEqual(25);
    for (const k of pluralKeys) {
      for (const block of ar[k].matchAll(/\{\s*\w+\s*,\s*plural\s*,/g)) {
        const rest = ar[k].slice(block.index! + block[0].length);
        for (const form of ["zero", "one", "two", "few", "many", "other"]) expect({ k, form, has: new RegExp(`(^|[}\\s])${form}\\s*\\{`).test(rest) }).toEqual({ k, form, has: true });
      }
      expect({ k, other: /other\s*\{/.test(en[k]) }).toEqual({ k, other: true });
    }
  });
});

describe("every pluralised message, for 0, 1, 2, 3, 11 and 100, in both languages", () => {
  it.each(pluralKeys)("%s", (key) => {
    for (const [lang, messages] of Object.entries(dictionaries) as [keyof typeof dictionaries, Messages][]) {
      const names = sorted(paramsOf(messages[key]));
      const counted = pluralsOf(messages[key]);
      for (const n of COUNTS) {
        const text = format(messages, key, Object.fromEntries(names.map((name) => [name, n])));
        const where = { key, lang, n, text };
        // Nothing left of the syntax: no brace, no `#`, no raw `{n}`.
        expect(where).not.toMatchObject({ text: expect.stringMatching(/[{}#]/) });
        expect(where).not.toMatchObject({ text: expect.stringMatching(ARABIC_DIGITS) });
        // From 3 on, every language writes the count itself, in Latin digits (0, 1 and 2 may be words: "يومان").
        if (n >= 3 && counted.size > 0) expect(where).toMatchObject({ text: expect.stringMatching(new RegExp(`(^|\\D)${n}(\\D|$)`)) });
      }
      // Different counts read differently wherever the language has different forms for them.
      if (lang === "ar") {
        const forms = COUNTS.map((n) => format(messages, key, Object.fromEntries(names.map((name) => [name, n])))).map((t) => t.replace(/\d+/g, "N"));
        expect({ key, distinct: new Set(forms.slice(1, 5)).size }).toEqual({ key, distinct: 4 });
      }
    }
  });
});

describe("the forms themselves", () => {
  const t = (messages: Messages, key: MessageKey, params: Record<string, string | number>) => format(messages, key, params);

  it("English: one and other, and an exact =0", () => {
    expect(t(en, "quiz.questions", { n: 1, points: 1 })).toBe("1 question, 1 point");
    expect(t(en, "quiz.questions", { n: 2, points: 5 })).toBe("2 questions, 5 points");
    expect(t(en, "quiz.timed", { n: 1 })).toBe("1 minute once you start");
    expect(t(en, "quiz.timed", { n: 15 })).toBe("15 minutes once you start");
    expect(t(en, "tasks.leftDays", { n: 1 })).toBe("1 day left");
    expect(t(en, "tasks.leftDays", { n: 3 })).toBe("3 days left");
    expect(t(en, "quiz.result.attemptsLeft", { n: 1 })).toBe("1 attempt left");
    expect(t(en, "quiz.result.attemptsLeft", { n: 0 })).toBe("No attempts left");
    expect(t(en, "quizEditor.totals", { n: 0, points: 0 })).toBe("No questions yet, 0 points");
    expect(t(en, "quiz.answers.earned", { earned: 0, points: 1 })).toBe("0 of 1 point");
    expect(t(en, "courses.seats", { count: 1 })).toBe("1 seat");
    expect(t(en, "notification.lectures-scheduled", { count: 1, group: "Web" })).toBe("1 lecture was scheduled in Web");
    expect(t(en, "notification.lectures-scheduled", { count: 12, group: "Web" })).toBe("12 lectures were scheduled in Web");
  });

  it("Arabic: days for 1, 2, 3, 11 and 100 (the issue's \"باقٍ 3 يوم\")", () => {
    expect([1, 2, 3, 11, 100, 0].map((n) => t(ar, "tasks.leftDays", { n }))).toEqual(["بقي يوم واحد", "بقي يومان", "بقيت 3 أيام", "بقي 11 يومًا", "بقي 100 يوم", "أقل من يوم"]);
  });

  it("Arabic: questions and points, minutes, attempts, seats", () => {
    expect([0, 1, 2, 3, 11, 100].map((n) => t(ar, "quiz.questions", { n, points: n }))).toEqual([
      "لا أسئلة، بلا درجات",
      "سؤال واحد، درجة واحدة",
      "سؤالان، درجتان",
      "3 أسئلة، 3 درجات",
      "11 سؤالًا، 11 درجة",
      "100 سؤال، 100 درجة",
    ]);
    expect([1, 2, 3, 11, 100].map((n) => t(ar, "quiz.timed", { n }))).toEqual(["دقيقة واحدة من لحظة البدء", "دقيقتان من لحظة البدء", "3 دقائق من لحظة البدء", "11 دقيقة من لحظة البدء", "100 دقيقة من لحظة البدء"]);
    expect([1, 2, 3, 11].map((n) => t(ar, "quiz.result.attemptsLeft", { n }))).toEqual(["بقيت محاولة واحدة", "بقيت محاولتان", "بقيت 3 محاولات", "بقيت 11 محاولة"]);
    expect([1, 2, 10, 25, 100].map((count) => t(ar, "courses.seats", { count }))).toEqual(["مقعد واحد", "مقعدان", "10 مقاعد", "25 مقعدًا", "100 مقعد"]);
    // The "0 من 1 درجات": a genitive after "من".
    expect(t(ar, "quiz.answers.earned", { earned: 0, points: 1 })).toBe("0 من درجة واحدة");
    expect(t(ar, "quiz.answers.earned", { earned: 1, points: 2 })).toBe("1 من درجتين");
    expect(t(ar, "quiz.answers.earned", { earned: 4, points: 5 })).toBe("4 من 5 درجات");
  });

  it("Arabic plural categories come from Intl.PluralRules: 102 is `other`, 103 `few`, 111 `many`", () => {
    expect([102, 103, 111, 1000].map((n) => t(ar, "tasks.leftDays", { n }))).toEqual(["بقي 102 يوم", "بقيت 103 أيام", "بقي 111 يومًا", "بقي 1,000 يوم"]);
  });
});

describe("text written outside the pages", () => {
  it("notifications render their count in the reader's language from the stored parameters", () => {
    const n = { kind: "lectures-scheduled", title: "12 lectures were scheduled in Web", params: { count: 2, group: "Web" } };
    expect(notificationText(en, n)).toBe("2 lectures were scheduled in Web");
    expect(notificationText(ar, n)).toBe("جُدولت محاضرتان في Web");
    expect(notificationText(ar, { ...n, params: { count: 11, group: "Web" } })).toBe("جُدولت 11 محاضرة في Web");
  });

  it("the account e-mails say \"1 minute\" and \"10 minutes\"", () => {
    expect(verificationMail("123456", 1).text).toContain("It expires in 1 minute.");
    expect(verificationMail("123456", 10).text).toContain("It expires in 10 minutes.");
    expect(resetMail("Salma", "123456", 1).text).toContain("It expires in 1 minute.");
  });
});

describe("numbers in messages", () => {
  it("are written by the language's number format with Latin digits: grouped, at most two decimals", () => {
    expect(formatNumber(12500, "en")).toBe("12,500");
    expect(formatNumber(12500, "ar")).toBe("12,500");
    expect(formatNumber(66.666, "ar")).toBe("66.67");
    // A percentage is a percentage by Intl.NumberFormat too: in Arabic with CLDR's left-to-right marks around the sign,
    // so "25%" does not turn into "%25" at the end of a right-to-left sentence.
    expect(formatPercent(75, "en")).toBe("75%");
    expect(formatPercent(66.667, "en")).toBe("66.67%");
    expect(formatPercent(75, "ar")).toBe("75\u200e%\u200e");
    expect(format(ar, "groups.students.seats", { count: 1200, capacity: 1500 })).toBe("المقاعد المشغولة: 1,200 من 1,500");
    expect(format(ar, "progress.meter", { label: "الحضور", value: 80 })).toBe("الحضور: 80\u200e%\u200e");
    expect(format(en, "progress.meter", { label: "Attendance", value: 80 })).toBe("Attendance: 80%");
    expect(format(ar, "quiz.result.percent", { n: 100 })).toBe(formatPercent(100, "ar"));
  });

  it("leave strings alone, so a year or a code passed as a string is not grouped", () => {
    expect(format(en, "footer.rights", { year: "2026" })).toBe("© 2026 Cohort. All rights reserved.");
    expect(format(ar, "footer.rights", { year: "2026" })).toContain("© 2026 ");
    expect(format(en, "footer.rights", { year: 2026 })).toContain("2,026");
  });

  it("keep a gap visible: a missing parameter stays {name}, an unknown key is the key", () => {
    expect(format(en, "quiz.points", {})).toBe("{n}");
    expect(format(en, "groups.students.seats", { count: 3 })).toBe("Seats taken: 3 of {capacity}");
    expect(format(en, "no.such.key" as MessageKey)).toBe("no.such.key");
  });

  it("leave braces that are not parameters as they are (JSON in a hint)", () => {
    expect(formatMessage('written as JSON (5, "five", [1, 2], {"a": 1})', {}, "en")).toBe('written as JSON (5, "five", [1, 2], {"a": 1})');
    expect(formatMessage("{n, plural, one {# item ({name})} other {# items ({name})}}", { n: 1, name: "x" }, "en")).toBe("1 item (x)");
    expect(formatMessage("{a, plural, one {{b, plural, one {# b} other {# bs}} in # a} other {# as}}", { a: 1, b: 2 }, "en")).toBe("2 bs in 1 a");
  });
});
