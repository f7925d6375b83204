import { exportLoader } from "./export-loader.server";

/**
 * GET /admin/exports/applications?from=&to=: Export CSV of the applications submitted in the range,
 * streamed, SSN and bank numbers masked; audited ('applications.export'). Any staff role (auditors
 * export too); a bad range is a 400 with the form's message.
 */
export const loader = exportLoader("applications");
