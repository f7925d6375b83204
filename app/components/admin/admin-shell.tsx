import type { ReactNode } from "react";
import { NavLink, useRouteLoaderData } from "react-router";
import UnreadBadge from "~/components/unread-badge";
import type { HeaderUser } from "~/components/header";
import { can, type Permission, type StaffRole } from "~/domain/staff-permissions";
import { cn } from "~/utils/cn";

/** The admin area's frame: page title, short description and the section navigation. */

const SECTION_LABELS = {
  "/admin": "Applications",
  "/admin/clients": "Client Information",
  "/admin/documents": "Document Viewer",
  "/admin/monitoring": "Activity Monitoring",
  "/admin/security": "Security Settings",
  "/admin/testimonials": "Testimonials",
  "/admin/conversations": "Application Messages",
  "/admin/messages": "Contact Inbox",
  "/admin/loans": "Loans",
  "/admin/collections": "Collections",
  "/admin/ach": "ACH",
  "/admin/reports": "Reports",
  "/admin/staff": "Staff",
} as const;

/** Sections a role may not open are left out of its navigation; the rest need staff.read. */
const SECTION_PERMISSIONS: Partial<Record<keyof typeof SECTION_LABELS, Permission>> = {
  "/admin/staff": "staff.manage",
  "/admin/collections": "collections.work",
};

/** The applications list is the area's index: its tab is current on /admin only, not on every admin page. */
export const ADMIN_SECTIONS = Object.entries(SECTION_LABELS).map(([to, label]) => ({
  to,
  label,
  end: to === "/admin",
  permission: SECTION_PERMISSIONS[to as keyof typeof SECTION_LABELS] ?? ("staff.read" as Permission),
}));

/** Whether the signed-in staff member's role holds `permission` (controls it does not are left out). */
export function useStaffCan(permission: Permission): boolean {
  return can(useStaffRole(), permission);
}

/** The signed-in staff member's role, from the root loader (null outside a staff session). */
export function useStaffRole(): StaffRole | null {
  return useRouteLoaderData<{ staffRole?: StaffRole | null }>("root")?.staffRole ?? null;
}

/**
 * The unread counts the navigation shows, from the root loader: applicant messages this staff member
 * has not read (Application Messages) and contact-form messages nobody has opened (Contact Inbox).
 */
function useSectionBadges(): Partial<Record<keyof typeof SECTION_LABELS, number>> {
  const user = useRouteLoaderData<{ user?: HeaderUser }>("root")?.user ?? null;
  return { "/admin/conversations": user?.staffUnreadMessages, "/admin/messages": user?.staffUnreadContact };
}

export function AdminShell({ title, description, actions, children }: { title: string; description?: string; actions?: ReactNode; children: ReactNode }) {
  const role = useStaffRole();
  const sections = ADMIN_SECTIONS.filter((s) => can(role, s.permission));
  const badges = useSectionBadges();
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <nav aria-label="Admin" className="mb-6 overflow-x-auto">
        <ul className="flex min-w-max gap-1 border-b border-slate-200">
          {sections.map((s) => (
            <li key={s.to}>
              <NavLink
                to={s.to}
                end={s.end}
                className={({ isActive }) =>
                  cn(
                    "inline-block border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2",
                    isActive ? "border-primary text-primary" : "border-transparent text-slate-700 hover:text-primary",
                  )
                }
              >
                {s.label}
                {badges[s.to as keyof typeof SECTION_LABELS] ? <UnreadBadge count={badges[s.to as keyof typeof SECTION_LABELS]!} /> : null}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-primary sm:text-3xl">{title}</h1>
          {description ? <p className="mt-1 text-slate-700">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      <div className="mt-6">{children}</div>
    </div>
  );
}
