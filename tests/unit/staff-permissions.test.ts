import { describe, expect, it } from "vitest";
import { USER_ROLES } from "~/domain/enums";
import { can, PERMISSIONS, permissionsOf, STAFF_ROLE_LABELS, type Permission } from "~/domain/staff-permissions";

/** The separation of duties issue 22 asks for, as the permission table states it. */
describe("staff permissions", () => {
  const all = Object.keys(PERMISSIONS) as Permission[];

  it("gives the admin everything", () => {
    for (const p of all) expect(can("admin", p), p).toBe(true);
  });

  it("lets the auditor read and nothing else: no reveal, no decision, no money, no staff", () => {
    expect(all.filter((p) => can("auditor", p))).toEqual(["staff.read"]);
  });

  it("lets the loan officer work applications and late loans and reveal, but not move money, manage staff or migrate keys", () => {
    expect(all.filter((p) => can("loan_officer", p)).sort()).toEqual(["applications.work", "collections.work", "content.moderate", "sensitive.reveal", "staff.read"]);
  });

  it("gives applicants (no role) nothing, and labels every role", () => {
    for (const p of all) expect(can(null, p)).toBe(false);
    expect(Object.values(permissionsOf(undefined)).every((v) => v === false)).toBe(true);
    expect(Object.keys(STAFF_ROLE_LABELS).sort()).toEqual([...USER_ROLES].sort());
    expect(permissionsOf("auditor")["staff.read"]).toBe(true);
  });
});
