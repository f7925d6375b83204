import { describe, expect, it } from "vitest";
import { announcementFor, approvalKeys } from "~/components/dashboard/use-dashboard-live";
import type { Dashboard } from "~/domain/views/dashboard";

/** What the dashboard announces when an approval arrives live: 'Loan Approved!' or 'Counteroffer'. */

const offer = (applicationId: string, isCounteroffer: boolean) => ({ applicationId, isCounteroffer }) as Dashboard["offers"][number];

describe("announcementFor", () => {
  it("announces nothing when no approval is new", () => {
    expect(announcementFor(["application:a"], ["application:a"], [offer("a", false)])).toBeNull();
    expect(announcementFor(["application:a", "loan:l"], ["application:a"], [])).toBeNull();
  });

  it("announces an offer on the terms asked for as approved, a counteroffer as a counteroffer", () => {
    expect(announcementFor([], ["application:a"], [offer("a", false)])).toBe("approved");
    expect(announcementFor([], ["application:a"], [offer("a", true)])).toBe("counteroffer");
  });

  it("looks at each application's latest offer (offers come newest first)", () => {
    expect(announcementFor([], ["application:a"], [offer("a", true), offer("a", false)])).toBe("counteroffer");
    expect(announcementFor([], ["application:a"], [offer("a", false), offer("a", true)])).toBe("approved");
  });

  it("says approved when any new approval is one: a plain offer beside a counteroffer, or a new loan", () => {
    expect(announcementFor([], ["application:a", "application:b"], [offer("a", true), offer("b", false)])).toBe("approved");
    expect(announcementFor(["application:a"], ["application:a", "loan:l"], [offer("a", true)])).toBe("approved");
    expect(announcementFor([], ["application:a", "application:b"], [offer("a", true), offer("b", true)])).toBe("counteroffer");
  });

  it("an approved application without an offer in the data is announced as approved", () => {
    expect(announcementFor([], ["application:a"], [])).toBe("approved");
  });

  it("takes its keys from approved applications and listed loans", () => {
    const data = {
      applications: [
        { id: "a", status: "approved" },
        { id: "b", status: "pending" },
      ],
      approvedLoans: [{ id: "l" }],
    } as unknown as Pick<Dashboard, "applications" | "approvedLoans">;
    expect(approvalKeys(data)).toEqual(["application:a", "loan:l"]);
  });
});
