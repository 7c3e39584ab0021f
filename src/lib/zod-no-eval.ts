/**
 * Turns off zod's JIT in the browser. zod compiles object parsers with `new Function` after
 * probing whether eval is allowed; the server's Content-Security-Policy has no `'unsafe-eval'`
 * (server/http/edges.ts), so the probe is refused and reported as a CSP violation even though
 * zod catches it. Imported first by each page entry, before any schema parses.
 */
import { z } from 'zod';

z.config({ jitless: true });
