import { z } from "zod";

// The enforced CSP has no 'unsafe-eval'. Left to itself zod probes `new Function("")` the first time an
// object schema parses, to compile a faster parser; in the browser that probe is a CSP violation
// (a console error, and a Lighthouse best-practices failure). Interpreted parsing is plenty for forms.
// Every schema module imports z from here, so this runs before the first schema is built.
z.config({ jitless: true });

export { z };
