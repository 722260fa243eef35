import { z } from "zod";

// The site's Content-Security-Policy forbids eval. Zod compiles parsers with `new Function`
// unless told not to, and even probing for it is reported as a CSP violation in the browser.
z.config({ jitless: true });

export { z };
