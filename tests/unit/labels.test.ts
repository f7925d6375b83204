import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { APPLICATION_STATUSES, APPROVED_LOAN_STATUSES, BANK_ACCOUNT_TYPES, EMPLOYMENT_STATUSES, JOB_NAMES, LOAN_TYPES } from "~/domain/enums";
import { APPLICATION_EVENT_KINDS, REQUEST_ITEM_KINDS, REQUEST_ITEM_STATUSES } from "~/domain/conversation-enums";
import {
  ACCOUNT_TYPE_LABELS,
  APPLICATION_EVENT_LABELS,
  APPLICATION_STATUS_LABELS,
  APPROVED_LOAN_STATUS_LABELS,
  REQUEST_ITEM_KIND_LABELS,
  REQUEST_ITEM_STATUS_LABELS,
  EMPLOYMENT_LABELS,
  JOB_LABELS,
  LOAN_TYPE_LABELS,
  accountTypeLabel,
  applicationStatusLabel,
  employmentLabel,
  loanTypeLabel,
  termLabel,
  titleCase,
} from "~/domain/labels";
import { formatDate, formatDateTime, formatTime } from "~/domain/formats";
import { expectResults } from "../helpers/expect-results";

const MAPS = [
  { name: "LOAN_TYPE_LABELS", values: LOAN_TYPES, labels: LOAN_TYPE_LABELS },
  { name: "EMPLOYMENT_LABELS", values: EMPLOYMENT_STATUSES, labels: EMPLOYMENT_LABELS },
  { name: "ACCOUNT_TYPE_LABELS", values: BANK_ACCOUNT_TYPES, labels: ACCOUNT_TYPE_LABELS },
  { name: "APPLICATION_STATUS_LABELS", values: APPLICATION_STATUSES, labels: APPLICATION_STATUS_LABELS },
  { name: "APPROVED_LOAN_STATUS_LABELS", values: APPROVED_LOAN_STATUSES, labels: APPROVED_LOAN_STATUS_LABELS },
  { name: "REQUEST_ITEM_KIND_LABELS", values: REQUEST_ITEM_KINDS, labels: REQUEST_ITEM_KIND_LABELS },
  { name: "REQUEST_ITEM_STATUS_LABELS", values: REQUEST_ITEM_STATUSES, labels: REQUEST_ITEM_STATUS_LABELS },
  { name: "APPLICATION_EVENT_LABELS", values: APPLICATION_EVENT_KINDS, labels: APPLICATION_EVENT_LABELS },
  { name: "JOB_LABELS", values: JOB_NAMES, labels: JOB_LABELS },
] as const;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

describe("one label per enum value", () => {
  for (const { name, values, labels } of MAPS) {
    it(`${name} labels every value exactly once, and nothing else`, () => {
      expect(Object.keys(labels).sort()).toEqual([...values].map(String).sort());
      for (const value of values) expect((labels as Record<string, string>)[value]).toMatch(/\S/);
      // Two values with one label could not be told apart on screen.
      expect(new Set(Object.values(labels)).size).toBe(values.length);
    });
  }

  it("no other module in app/ defines a label map or label helper of its own", () => {
    const root = join(import.meta.dirname, "../../app");
    const definers: string[] = [];
    const pattern = new RegExp(
      `(const|let|var|function)\\s+(${[...MAPS.map((m) => m.name), "loanTypeLabel", "employmentLabel", "statusLabel", "termLabel", "durationLabel", "titleCase", "formatDateTime", "formatUsd"].join("|")})\\b`,
    );
    for (const file of sourceFiles(root)) {
      const path = relative(root, file);
      if (path === join("domain", "labels.ts") || path === join("domain", "formats.ts")) continue;
      if (pattern.test(readFileSync(file, "utf8"))) definers.push(path);
    }
    expect(definers).toEqual([]);
  });

  it("uses the wizard's wording, which is what applicants chose from", () => {
    expect(employmentLabel("full-time")).toBe("Full-time");
    expectResults(loanTypeLabel, [
      ["personal", "Personal Loan"],
      ["hard-money", "Hard Money / Bridge Loan"],
    ]);
  });

  it("shows unknown values readably", () => {
    expect(loanTypeLabel("some_type")).toBe("Some Type");
    expect(employmentLabel("contractor")).toBe("contractor");
    expect(accountTypeLabel("money-market")).toBe("Money Market");
    expectResults(applicationStatusLabel, [
      ["under_review", "Under Review"],
      ["on_hold", "On Hold"],
      ["", "Unknown"],
    ]);
    expect(titleCase("hard-money loan")).toBe("Hard Money Loan");
  });

  it("labels terms in months and years", () => {
    expectResults(termLabel, [
      [6, "6 months"],
      [12, "12 months (1 year)"],
      [18, "18 months (1.5 years)"],
      [60, "60 months (5 years)"],
    ]);
  });
});

describe("dates and times", () => {
  const iso = "2026-11-22T15:04:05Z";
  it("formats a date, a date and time, and a time in the given zone", () => {
    expect(formatDate(iso, "UTC")).toBe("Nov 22, 2026");
    expect(formatDateTime(iso, "UTC")).toBe("Nov 22, 2026, 3:04 PM");
    expect(formatDateTime(iso, "UTC", { seconds: true, zone: true })).toBe("Nov 22, 2026, 3:04:05 PM UTC");
    expect(formatDateTime(iso, "UTC", { zone: true })).toBe("Nov 22, 2026, 3:04 PM UTC");
    expect(formatTime(iso, "UTC")).toBe("3:04:05 PM");
  });
  it("shows a dash for a value that is not a date", () => {
    for (const format of [formatDate, formatDateTime, formatTime]) expect(format("nope", "UTC"), format.name).toBe("—");
  });
});
