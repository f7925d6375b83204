/**
 * The sanctions module's front door: the Treasury's lists loaded from OFAC's files and the screening
 * of a person against them (decision 0089). Everything else in app/server/sanctions/ is internal;
 * ESLint refuses an import of it from outside the module.
 */
export { loadSanctionsLists, readSanctionsFiles, storeSanctionsLists, type LoadedList, type SanctionsPublication } from "./list-load.server";
export { sanctionsLoadCommand, type LoadCommandOptions } from "./load-command.server";
export { OFAC_FILE_NAMES, SanctionsFileError, type OfacFile } from "./ofac-csv.server";
export { currentSanctionsLists, screenPerson, type PersonToScreen } from "./screening.server";
export { sanctionsClearance, type SanctionsClearance } from "./clearance.server";
export {
  rescreenAll,
  screenApplicant,
  screenForFunding,
  type ApplicantScreening,
  type Rescreening,
  type ScreeningSubject,
  type ScreeningSubjectsPage,
} from "./application-screening.server";
export { clearSanctionsMatch, confirmSanctionsMatch, sanctionsPanel, type MatchDecision } from "./match-decisions.server";
