/**
 * The offers module's front door: what routes and other modules may use. Everything else in
 * app/server/offers/ is internal; ESLint (no-restricted-imports in eslint.config.js) refuses an import of it
 * from outside the module, so the module can change its insides without touching its callers.
 */
export { agreementLender, agreementReference, borrowerName } from "./agreement-document.server";
export { runAgreementVerify, verifyAgreementPdf } from "./agreement-seal.server";
export { serveSignedAgreement } from "./agreement-file.server";
export { clean, collect, fonts, tableCells, tableCellsHeight, tableColumns } from "./agreement-pdf.server";
export { awaitedOfferApplication } from "./awaited-offers.server";
export { giveConsent } from "./consent.server";
export { startOfferExpiryJob } from "./expiry-job.server";
export { declineOffer } from "./offer-decisions.server";
export { OFFER_DECLINE_FORM, offerDeclineAction } from "./offer-decline-action.server";
export { certificateForOffer, counterofferFor, disclosureFor, hasSignedAgreement, insertOffer, latestOffersOf, OFFER_TERMS_MESSAGES, offersForApplication, offersOfApplicant, toOfferView } from "./offers.server";
export type { LatestOffer, OfferTermsInput } from "./offers.server";
export { offerRecordsOfPerson } from "./person-offers.server";
export { loadReviewAndSign, reviewAndSignAction } from "./review-and-sign.server";
export { signOffer } from "./sign-agreement.server";
export { signedOfferFacts } from "./funding-facts.server";
export { offerWithdrawAction } from "./withdraw-offer.server";
export { recordOfferTermsInForce } from "./offer-terms-in-force.server";
export { lenderSigningIdentity } from "./agreement-seal.server";
export { currentConsent, ownApplication, type CurrentConsent, type OwnApplication } from "./consent.server";
export { holdCurrentConsent } from "./consent-hold.server";
