import { describe, expect, it } from "vitest";
import { classifySearch, searchKinds, uuidRange } from "~/server/staff/client-search-terms.server";

/** How the one staff search box is read (issue 24): each entry → the kinds it can be, never a pattern. */

describe("client search terms", () => {
  it("reads 4 digits as a last 4 and as an application id prefix", () => {
    const t = classifySearch("1120");
    expect(searchKinds(t)).toEqual(["last4", "applicationId"]);
    expect(t.last4).toBe("1120");
    expect(t.applicationId).toEqual({ min: "11200000-0000-0000-0000-000000000000", max: "1120ffff-ffff-ffff-ffff-ffffffffffff" });
  });

  it("reads hex with dashes as an application id prefix, and a whole uuid as one id", () => {
    expect(classifySearch("3F2A9C1D-44").applicationId).toEqual({ min: "3f2a9c1d-4400-0000-0000-000000000000", max: "3f2a9c1d-44ff-ffff-ffff-ffffffffffff" });
    const id = "0b6e6a49-2a7e-4d54-9f3c-6a0f5a3c1e2d";
    expect(classifySearch(id).applicationId).toEqual({ min: id, max: id });
    expect(classifySearch("abc").applicationId).toBeNull();
    expect(classifySearch(`${id}0`).applicationId).toBeNull();
    // A hex word is also a name.
    expect(searchKinds(classifySearch("bead"))).toEqual(["applicationId", "name"]);
  });

  it("reads phone numbers in their usual formats as digits", () => {
    expect(classifySearch("(302) 555-0199").phone).toEqual({ digits: "3025550199", exact: true });
    expect(classifySearch("+1 302 555 0199").phone).toEqual({ digits: "3025550199", exact: true });
    expect(classifySearch("302.555.0").phone).toEqual({ digits: "3025550", exact: false });
    expect(classifySearch("302-555").phone).toBeNull();
    expect(searchKinds(classifySearch("302-555-0199"))).toEqual(["applicationId", "phone"]);
  });

  it("reads '@' as an e-mail prefix, or with a leading '@' as a domain", () => {
    expect(classifySearch("Jane.D@Ex").email).toEqual({ prefix: "Jane.D@Ex", part: "address" });
    expect(classifySearch("@example.com").email).toEqual({ prefix: "example.com", part: "domain" });
    expect(classifySearch("@").email).toBeNull();
    expect(searchKinds(classifySearch("a@b"))).toEqual(["email"]);
  });

  it("reads anything with a letter (any script) as a name, whitespace collapsed", () => {
    expect(classifySearch("  jane   doe ").name).toBe("jane doe");
    expect(classifySearch("Zoë").name).toBe("Zoë");
    expect(classifySearch("Łukasz").name).toBe("Łukasz");
    expect(searchKinds(classifySearch("%_"))).toEqual(["name"]);
    expect(searchKinds(classifySearch(""))).toEqual([]);
  });

  it("computes uuid ranges for any prefix length", () => {
    expect(uuidRange("a")).toEqual({ min: "a0000000-0000-0000-0000-000000000000", max: "afffffff-ffff-ffff-ffff-ffffffffffff" });
  });
});
