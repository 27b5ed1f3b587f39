/**
 * Written once, read many times (ADR 48): message templates are read into parts once, and the numbers, percentages,
 * days and instants a page writes are remembered per isolate. What is remembered must be exactly what would have
 * been written, for every language, zone and form it depends on, however the calls are ordered.
 */
import { describe, expect, it } from "vitest";
import { formatWhen } from "../../app/components/lectures/when";
import { ar } from "../../app/i18n/ar";
import { en } from "../../app/i18n/en";
import { format, formatMessage, formatNumber, formatPercent } from "../../app/i18n/translate";
import { formatDate, formatShortDate } from "../../app/lib/i18n";

const intlNumber = (n: number, locale: string) => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(n);
const intlPercent = (n: number, locale: string) => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 }).format(n / 100);

describe("remembered numbers", () => {
  it("are told apart by language: a percentage asked in English first still reads as Arabic writes it", () => {
    expect(formatPercent(37, "en")).toBe("37%");
    expect(formatPercent(37, "ar")).toBe(intlPercent(37, "ar-EG-u-nu-latn"));
    expect(formatPercent(37, "ar")).not.toBe("37%");
    expect(formatPercent(37, "en")).toBe("37%");
  });

  it("keep -0 apart from 0, and every other number as Intl writes it, asked twice and in either order", () => {
    expect(formatNumber(0, "en")).toBe("0");
    expect(formatNumber(-0, "en")).toBe(intlNumber(-0, "en-GB"));
    for (const n of [1200, 0.5, 1 / 3, 12500.129, -7, 1e21]) {
      for (const lang of ["ar", "en", "ar"] as const) {
        expect(formatNumber(n, lang)).toBe(intlNumber(n, lang === "ar" ? "ar-EG-u-nu-latn" : "en-GB"));
      }
    }
  });

  it("stay right past the memory's bound: five thousand numbers asked, the first ones again after", () => {
    for (let n = 0; n < 5000; n++) expect(formatNumber(n + 0.25, "en")).toBe(intlNumber(n + 0.25, "en-GB"));
    expect(formatNumber(0.25, "en")).toBe("0.25");
    expect(formatNumber(4999.25, "en")).toBe("4,999.25");
  });
});

describe("remembered dates", () => {
  const at = "2026-12-02T18:05:00.000Z";

  it("are told apart by language and zone", () => {
    const enUtc = formatWhen(at, "en", "UTC");
    expect(enUtc).toBe("Wed, 2 Dec 2026, 18:05");
    expect(formatWhen(at, "en", "Africa/Cairo")).toBe("Wed, 2 Dec 2026, 20:05");
    expect(formatWhen(at, "ar", "UTC")).not.toBe(enUtc);
    expect(formatWhen(at, "ar", "UTC")).toBe("الأربعاء، 2 ديسمبر 2026، 06:05\u00a0م");
    expect(formatWhen(at, "en", "UTC")).toBe(enUtc);
  });

  it("are told apart by the month's length", () => {
    expect(formatDate("2026-11-21", "en")).toBe("21 November 2026");
    expect(formatShortDate("2026-11-21", "en")).toBe("21 Nov 2026");
    expect(formatDate("2026-11-21", "en")).toBe("21 November 2026");
    expect(formatDate("2026-11-21", "ar")).toContain("نوفمبر");
  });
});

describe("templates read once", () => {
  it("fill the same template with other values, in other languages, each time afresh", () => {
    expect(format(en, "groups.students.seats", { count: 3, capacity: 20 })).toBe("Seats taken: 3 of 20");
    expect(format(en, "groups.students.seats", { count: 12, capacity: 1500 })).toBe("Seats taken: 12 of 1,500");
    expect(format(ar, "groups.students.seats", { count: 1200, capacity: 1500 })).toBe("المقاعد المشغولة: 1,200 من 1,500");
    const items = "{n, plural, =0 {nothing} one {# item} other {# items}}";
    expect([0, 1, 2, 0].map((n) => formatMessage(items, { n }, "en"))).toEqual(["nothing", "1 item", "2 items", "nothing"]);
    expect(formatMessage(items, {}, "en")).toBe("{n}");
  });

  it("keep as written what fills nothing: an unclosed brace, a # outside a plural, braces that name no value", () => {
    expect(formatMessage("a {b", { b: 1 }, "en")).toBe("a {b");
    expect(formatMessage("# {n}", { n: 2 }, "en")).toBe("# 2");
    expect(formatMessage('{"a": 1} and {n}%', { n: 50 }, "en")).toBe('{"a": 1} and 50%');
    expect(formatMessage("{n, plural, one {# of {m}%} other {# of {m}}}", { n: 1, m: 40 }, "en")).toBe("1 of 40%");
  });
});
