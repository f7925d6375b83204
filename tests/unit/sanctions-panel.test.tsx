import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { SanctionsPanel } from "~/components/admin/application-page/sanctions-panel";
import type { SanctionsMatch } from "~/domain/sanctions";
import type { SanctionsPanelView } from "~/domain/views/sanctions-panel";

/** The Sanctions Screening section of the staff application page, rendered as the server sends it. */

const inRouter = (element: React.ReactElement) => renderToStaticMarkup(<RouterProvider router={createMemoryRouter([{ path: "/", element }])} />);

const match: SanctionsMatch = {
  list: "SDN",
  entityNumber: 1001,
  fingerprint: "f".repeat(64),
  primaryName: "KARIMOV, Rustam Bakhtiyorovich",
  entityType: "individual",
  programs: ["SDGT", "IRGC"],
  matchedName: "KARIMOV, Rustam",
  matchedAs: "aka",
  score: 0.9667,
  datesOfBirth: ["1968-03-14", "1969"],
  countries: ["Uzbekistan"],
  dateOfBirthAgrees: true,
  countryAgrees: false,
};

const screening = { screenedAt: "2026-12-06T10:00:00.000Z", trigger: "submission" as const, lists: [{ list: "SDN" as const, publishedOn: "2026-12-01" }], matchCount: 1 };

function panel(view: Partial<SanctionsPanelView>, canWork = true): string {
  const sanctions: SanctionsPanelView = { state: "clear", lastScreening: screening, matches: [], ...view };
  return inRouter(<SanctionsPanel applicationId="5ef9a48b-0000-4000-8000-000000000001" sanctions={sanctions} canWork={canWork} timeZone="UTC" />);
}

describe("Sanctions Screening section", () => {
  it("with an open match: the exact heading, the list entry with what helps decide, Clear Match and Confirm Match", () => {
    const html = panel({ state: "potential_match", matches: [{ id: "m1", status: "open", match, foundAt: screening.screenedAt, decidedByName: null, decidedAt: null, reason: null }] });
    expect(html).toMatch(/<h2 id="sanctions-heading"[^>]*>.*Sanctions Screening: Potential Match<\/h2>/);
    expect(html).toContain("Specially Designated Nationals (SDN) List");
    expect(html).toContain("KARIMOV, Rustam Bakhtiyorovich");
    expect(html).toContain("KARIMOV, Rustam (a.k.a.)");
    expect(html).toContain("96.67%");
    expect(html).toContain("SDGT, IRGC");
    expect(html).toContain("Individual");
    expect(html).toContain("1968-03-14, 1969 (agrees with the applicant&#x27;s)");
    expect(html).toContain("Uzbekistan (differs from the applicant&#x27;s)");
    expect(html).toContain("published Dec 1, 2026");
    expect(html).toMatch(/<button[^>]*data-action="clear-match"[^>]*>.*Clear Match<\/button>/);
    expect(html).toMatch(/<button[^>]*data-action="confirm-match"[^>]*>.*Confirm Match<\/button>/);
  });

  it("a role that does not work applications reads the match without the buttons", () => {
    const html = panel({ state: "potential_match", matches: [{ id: "m1", status: "open", match, foundAt: screening.screenedAt, decidedByName: null, decidedAt: null, reason: null }] }, false);
    expect(html).toContain("Sanctions Screening: Potential Match");
    expect(html).not.toContain("Clear Match");
    expect(html).not.toContain("Confirm Match");
  });

  it("says when no list was loaded, when never screened, and lists decided matches with who, when and why", () => {
    expect(panel({ state: "not_screened", lastScreening: { ...screening, lists: [], matchCount: 0 } })).toContain("when no sanctions list was loaded");
    expect(panel({ state: "not_screened", lastScreening: null })).toContain("Sanctions Screening: Not Screened");
    const html = panel({
      state: "confirmed",
      matches: [{ id: "m1", status: "confirmed", match, foundAt: screening.screenedAt, decidedByName: "Olive Officer", decidedAt: "2026-12-06T11:00:00.000Z", reason: "All agree." }],
    });
    expect(html).toContain("Sanctions Screening: Match Confirmed");
    expect(html).toContain("the application is frozen and cannot be funded");
    expect(html).toContain("Decided matches (1)");
    expect(html).toContain("by Olive Officer");
    expect(html).toContain("All agree.");
    expect(html).not.toContain("data-action=\"clear-match\"");
  });
});
