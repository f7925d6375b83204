import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { ApplicationStatusBadge } from "~/components/dashboard/status-badge";
import { formatDueDate, WhatWeNeedSummary } from "~/components/dashboard/what-we-need-summary";
import { APPLICATION_STATUSES } from "~/domain/enums";
import type { DashboardRequestItem } from "~/domain/views/dashboard";

/** The dashboard's pieces for issue 19: status badges (Closed as Incomplete grey) and the What We Need summary. */

const inRouter = (element: React.ReactElement) => renderToStaticMarkup(<RouterProvider router={createMemoryRouter([{ path: "/", element }])} />);

describe("application status badges", () => {
  it("have a label and a colour for every status; Under Review blue, Closed as Incomplete and Withdrawn grey", () => {
    const tones = Object.fromEntries(
      APPLICATION_STATUSES.map((status) => {
        const html = renderToStaticMarkup(<ApplicationStatusBadge status={status} />);
        return [status, [/data-tone="(\w+)"/.exec(html)![1], />([^<]+)<\/span>$/.exec(html)![1]]];
      }),
    );
    expect(tones).toEqual({
      pending: ["yellow", "Pending"],
      under_review: ["blue", "Under Review"],
      approved: ["green", "Approved"],
      denied: ["red", "Denied"],
      incomplete: ["grey", "Closed as Incomplete"],
      withdrawn: ["grey", "Withdrawn"],
    });
  });
});

describe("What We Need on the dashboard", () => {
  const item = (over: Partial<DashboardRequestItem>): DashboardRequestItem => ({
    id: "i1",
    applicationId: "5ef9a48b-0000-4000-8000-000000000001",
    loanType: "personal",
    kindLabel: "Pay Stub",
    status: "requested",
    statusLabel: "Requested",
    dueDate: "2099-01-31",
    overdue: false,
    ...over,
  });

  it("shows nothing when nothing is needed", () => {
    expect(inRouter(<WhatWeNeedSummary items={[]} />)).toBe("");
  });

  it("lists each item with its due date, rejected ones to upload again, overdue ones marked, each linking to its application", () => {
    const html = inRouter(
      <WhatWeNeedSummary items={[item({}), item({ id: "i2", kindLabel: "Bank Statement", status: "rejected", statusLabel: "Rejected", dueDate: "2000-01-31", overdue: true })]} />,
    );
    expect(html).toContain("What We Need");
    expect(html).toContain("Due <time dateTime=\"2099-01-31\">Jan 31, 2099</time>");
    expect(html).toContain("Overdue: was due <time dateTime=\"2000-01-31\">Jan 31, 2000</time>");
    expect(html).toContain("Rejected: please upload again");
    expect(html.match(/href="\/dashboard\/applications\/5ef9a48b-0000-4000-8000-000000000001"/g)).toHaveLength(2);
    expect(html).toContain("Open Application 5ef9a48b");
  });

  it("shows a due date as the same calendar day whatever the time zone", () => {
    expect(formatDueDate("2026-12-01")).toBe("Dec 1, 2026");
    expect(formatDueDate("2026-01-01")).toBe("Jan 1, 2026");
  });
});
