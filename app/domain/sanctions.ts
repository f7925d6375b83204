/**
 * The Treasury (OFAC) sanctions lists as the screening stores them, shared by the database's CHECK
 * constraints (app/server/platform/db/schema.server.ts), the list loader and the staff screens.
 */

import { labelledEnum } from "./labelled-enum";

/** The similarity from which a name is a potential match, unless SANCTIONS_MATCH_THRESHOLD says otherwise. */
export const DEFAULT_SANCTIONS_MATCH_THRESHOLD = 0.9;

/** The Specially Designated Nationals list and the Consolidated (non-SDN) list, as OFAC publishes them. */
export const { values: SANCTIONS_LISTS, labels: SANCTIONS_LIST_LABELS } = labelledEnum({
  SDN: "Specially Designated Nationals (SDN) List",
  Consolidated: "Consolidated Sanctions List (non-SDN)",
});
export type SanctionsList = (typeof SANCTIONS_LISTS)[number];

/** SDN_Type: the list writes "individual", "vessel" or "aircraft", and nothing ("-0-") for an entity. */
export const SANCTIONS_ENTITY_TYPES = ["individual", "entity", "vessel", "aircraft"] as const;
export type SanctionsEntityType = (typeof SANCTIONS_ENTITY_TYPES)[number];

/** alt_type: also known as, formerly known as, now known as (weak a.k.a.s are "aka" too). */
export const SANCTIONS_ALIAS_KINDS = ["aka", "fka", "nka"] as const;
export type SanctionsAliasKind = (typeof SANCTIONS_ALIAS_KINDS)[number];
export type SanctionsAlias = { kind: SanctionsAliasKind; name: string };

/** The name a match was found on: the entry's primary name or one of its aliases. */
export type SanctionsNameKind = "primary" | SanctionsAliasKind;

/** What a potential match shows staff: the list entry, the name that matched and how closely, and what helps decide. */
export type SanctionsMatch = {
  list: SanctionsList;
  /** The list's own entity number (ent_num), stable across publications. */
  entityNumber: number;
  /** Changes whenever the entry's names, programs, dates of birth or countries change (a cleared match is flagged again then). */
  fingerprint: string;
  primaryName: string;
  entityType: SanctionsEntityType;
  programs: string[];
  matchedName: string;
  matchedAs: SanctionsNameKind;
  /** Jaro-Winkler similarity of the normalised names, 0 to 1. */
  score: number;
  /** As the list gives them: "1970-01-01", "1970-01" or "1970" (a year, also for "circa"). */
  datesOfBirth: string[];
  countries: string[];
  /** true or false when both the list and the person have one; null when either has none. */
  dateOfBirthAgrees: boolean | null;
  countryAgrees: boolean | null;
};

/** The list publications a screening compared against. */
export type ScreenedList = { list: SanctionsList; publishedOn: string; loadedAt: Date; entryCount: number };

export type ScreeningResult = {
  threshold: number;
  /** Empty when no list was ever loaded: the caller decides what an unscreened person means. */
  lists: ScreenedList[];
  /** Best score first; one per list entry (its best-matching name). */
  matches: SanctionsMatch[];
};

/** Why a screening ran. */
export const SANCTIONS_SCREENING_TRIGGERS = ["submission", "funding", "list_load"] as const;
export type SanctionsScreeningTrigger = (typeof SANCTIONS_SCREENING_TRIGGERS)[number];

/** A potential match: open (blocks funding) → cleared (staff, with a reason) or confirmed (the application is denied and frozen). */
export const { values: SANCTIONS_MATCH_STATUSES, labels: SANCTIONS_MATCH_STATUS_LABELS } = labelledEnum({
  open: "Potential Match",
  cleared: "Cleared",
  confirmed: "Confirmed",
});
export type SanctionsMatchStatus = (typeof SANCTIONS_MATCH_STATUSES)[number];
