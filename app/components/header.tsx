import * as layoutDashboardIcon from "lucide-react/icons/layout-dashboard";
import * as logOutIcon from "lucide-react/icons/log-out";
import * as menuIcon from "lucide-react/icons/menu";
import * as phoneIcon from "lucide-react/icons/phone";
import * as shieldCheckIcon from "lucide-react/icons/shield-check";
import * as xIcon from "lucide-react/icons/x";
import { lazy, Suspense, useEffect } from "react";
import { Form, Link, useLocation } from "react-router";
import { mainNavLinks } from "~/content/navigation";
import { phoneHref, site } from "~/content/site";
import { cn } from "~/utils/cn";
import { LogoMark } from "./logo";
import { LinkButton } from "./link-button";
import { Button } from "./ui/button";
import { useDisclosure } from "./ui/disclosure";
import { DRAFT_STORAGE_KEY, IDEMPOTENCY_STORAGE_KEY } from "~/components/apply/storage-keys";
import { SIGNED_OUT_APPLY_HREF } from "~/components/auth/apply-href";
import { inlineIcons } from "~/components/ui/inline-icon";

const [LayoutDashboard, LogOut, Menu, Phone, ShieldCheck, X] = inlineIcons(
  layoutDashboardIcon, logOutIcon, menuIcon, phoneIcon, shieldCheckIcon, xIcon,
);

/**
 * The signed-in visitor as the header shows them. `unreadMessages`: messages from the lender they have
 * not read (all their applications); `staffUnreadMessages`: for an admin past the second factor, the
 * applicants' messages they have not read. Absent on cached public pages (no one is signed in there).
 */
export type HeaderUser = { name: string; unreadMessages?: number; staffUnreadMessages?: number; staffUnreadContact?: number } | null;

/**
 * Loaded only when there is something unread: anonymous visitors (the cached public pages, whose
 * JavaScript has a 150 KB budget) never fetch it. Server-rendered inside Suspense, so hydration waits
 * for the chunk instead of mismatching.
 */
const LazyUnreadBadge = lazy(() => import("./unread-badge"));

function UnreadBadge({ count }: { count: number | undefined }) {
  return count ? (
    <Suspense fallback={null}>
      <LazyUnreadBadge count={count} />
    </Suspense>
  ) : null;
}

function normalizePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") || "/" : pathname;
}

/** Exact match: aria-current="page". Section match (/services on /services/auto): highlighted only. */
function linkState(pathname: string, to: string): "page" | "section" | null {
  const path = normalizePath(pathname);
  if (path === to) return "page";
  if (to !== "/" && path.startsWith(`${to}/`)) return "section";
  return null;
}

/** The two looks of the main navigation: the desktop bar and the mobile menu (both on `navLink`). */
const navLink = "nav-link";
const navLooks = {
  bar: { list: "flex items-center gap-0.5", link: "nav-link-bar", current: "text-primary underline decoration-gold-500 decoration-2 underline-offset-8" },
  menu: { list: "flex flex-col", link: "nav-link-menu", current: "bg-navy-50 text-primary" },
} as const;

function NavLinks({ pathname, look }: { pathname: string; look: keyof typeof navLooks }) {
  const styles = navLooks[look];
  return (
    <ul className={styles.list}>
      {mainNavLinks.map((link) => {
        const state = linkState(pathname, link.to);
        return (
          <li key={link.to}>
            <Link to={link.to} aria-current={state === "page" ? "page" : undefined} className={cn(navLink, styles.link, state && styles.current)}>
              {link.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function PhoneLink({ className }: { className?: string }) {
  return (
    <a href={phoneHref} className={cn("inline-flex items-center gap-2 font-semibold hover:underline", className)}>
      <Phone aria-hidden="true" className="size-4" />
      <span>
        <span className="sr-only">Call us at </span>
        {site.phone.display}
      </span>
    </a>
  );
}

function AccountActions({ user, isStaff, stacked = false }: { user: HeaderUser; isStaff: boolean; stacked?: boolean }) {
  if (!user) {
    return (
      <Button asChild variant="accent" className={stacked ? "w-full" : undefined}>
        <Link to={SIGNED_OUT_APPLY_HREF}>Apply Now</Link>
      </Button>
    );
  }
  // Desktop: compact, text-only buttons so they fit beside the eight links at 1280 px.
  const size = stacked ? "default" : "sm";
  const full = stacked ? "w-full" : undefined;
  const icon = (Icon: typeof LogOut) => (stacked ? Icon : undefined);
  return (
    <div className={stacked ? "flex flex-col gap-2" : "flex items-center gap-2"}>
      <LinkButton to="/dashboard" variant="outline" size={size} className={full} icon={icon(LayoutDashboard)}>
        Dashboard
        <UnreadBadge count={user.unreadMessages} />
      </LinkButton>
      {/* A plain link: the account page's code loads only when it is opened. */}
      <LinkButton to="/account" variant="outline" size={size} className={full}>
        Account
      </LinkButton>
      {isStaff ? (
        <LinkButton to="/admin" variant="outline" size={size} className={full} icon={icon(ShieldCheck)}>
          Admin
          <UnreadBadge count={user.staffUnreadMessages} />
        </LinkButton>
      ) : null}
      {/* The sign-out route clears the session and redirects home with the 'Signed Out' toast. */}
      <Form method="post" action="/auth/sign-out" className={full} onSubmit={forgetApplicationDraft}>
        <Button type="submit" variant="default" size={size} className={full}>
          {stacked ? <LogOut aria-hidden="true" /> : null}
          Sign Out
        </Button>
      </Form>
    </div>
  );
}

/** Signing out forgets the unfinished application kept in this browser (personal data in localStorage). */
function forgetApplicationDraft() {
  try {
    window.localStorage.removeItem(DRAFT_STORAGE_KEY);
    window.sessionStorage.removeItem(DRAFT_STORAGE_KEY);
    window.sessionStorage.removeItem(IDEMPOTENCY_STORAGE_KEY);
  } catch {
    /* storage unavailable: nothing stored */
  }
}

export function Header({ user, isStaff }: { user: HeaderUser; isStaff: boolean }) {
  const location = useLocation();
  const menu = useDisclosure();

  // Close the mobile menu on every navigation (focus goes back to the toggle if it was in the menu).
  const closeMenu = menu.close;
  useEffect(() => closeMenu(), [location.key, closeMenu]);

  return (
    <header className="border-b border-border bg-background">
      <div className="on-dark bg-navy-950 text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-1.5 text-sm sm:px-6">
          <p className="hidden text-slate-300 sm:block">{site.tagline}</p>
          <PhoneLink className="text-gold-400" />
        </div>
      </div>

      <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <Link to="/" className="flex min-w-0 shrink-0 items-center gap-2 rounded-md text-primary">
          <LogoMark />
          <span className="flex flex-col leading-tight">
            <span className="text-lg font-bold tracking-tight whitespace-nowrap sm:text-xl">{site.name}</span>
            <span className="text-xs font-medium text-gold-700">{site.brandTitle}</span>
          </span>
        </Link>

        <nav aria-label="Main" className="hidden xl:block">
          <NavLinks pathname={location.pathname} look="bar" />
        </nav>

        <div className="hidden shrink-0 xl:block">
          <AccountActions user={user} isStaff={isStaff} />
        </div>

        <Button
          variant="ghost"
          size="icon"
          className="xl:hidden"
          onClick={menu.toggle}
          aria-label={menu.open ? "Close menu" : "Open menu"}
          {...menu.toggleProps}
        >
          {menu.open ? <X aria-hidden="true" className="size-6!" /> : <Menu aria-hidden="true" className="size-6!" />}
        </Button>
      </div>

      <div {...menu.panelProps} className="border-t border-border bg-background xl:hidden">
        <nav aria-label="Main" className="mx-auto max-w-7xl px-4 pt-3 pb-3 sm:px-6">
          <NavLinks pathname={location.pathname} look="menu" />
        </nav>
        <div className="mx-auto max-w-7xl px-4 pb-4 sm:px-6">
          <div className="border-t border-border pt-3">
            <AccountActions user={user} isStaff={isStaff} stacked />
          </div>
        </div>
      </div>
    </header>
  );
}
