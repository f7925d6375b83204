import { exportLoader } from "./export-loader.server";

/**
 * GET /admin/exports/audit?from=&to=: Export CSV of the audit log written in the range (with the hash
 * chain's sequence and row hash), streamed; audited ('audit.export'). Any staff role; a bad range is a
 * 400 with the form's message.
 */
export const loader = exportLoader("audit");
