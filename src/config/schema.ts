/**
 * What a valid configuration is: each option's rule, as zod checks it once the sources are merged
 * (config.ts), and the values the rest of the package reads.
 */
import * as z from 'zod';
import { API_PREFIX } from '../contract/operations.js';
import { LOG_FORMATS, LOG_LEVELS } from '../obs/log.js';
import { DEFAULT_PER_CLIENT_RATE } from './options.js';

// A signed string, so that "-5" is told it is below the minimum; a union that fails says so, not zod's "Invalid input".
const integerFrom = (min: number, max: number) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d+$/)
          .transform(Number),
      ],
      { error: 'must be a whole number' },
    )
    .pipe(
      z.number().int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
    );

/** A rule on a value that is a URL; a value that is none is left to the rule that says so. */
const ofUrl = (test: (url: URL) => boolean) => (value: string) => !URL.canParse(value) || test(new URL(value));
const noCredentials = ofUrl((url) => url.username === '' && url.password === '');

/** An absolute URL naming a server of ours or an issuer: https, or http on loopback only, with no credentials, query or fragment. */
function publicUrl(what: string) {
  return z
    .string()
    .trim()
    .refine((value) => URL.canParse(value), `must be an absolute URL (${what})`)
    .refine(
      ofUrl(
        (url) =>
          url.protocol === 'https:' ||
          (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)),
      ),
      'must be https (plain http only on localhost, 127.0.0.1 or [::1])',
    )
    .refine(noCredentials, 'must not carry credentials')
    .refine((value) => !value.includes('?') && !value.includes('#'), 'must not have a query string or fragment');
}

export const ConfigSchema = z
  .object({
    baseUrl: z
      .string()
      .trim()
      .refine(
        (value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol),
        'must be an absolute http(s) URL',
      )
      .refine(noCredentials, 'must not carry credentials')
      // Paths are appended to the base URL, so a query or fragment in it would swallow them.
      .refine((value) => !value.includes('?'), 'must not have a query string')
      .refine((value) => !value.includes('#'), 'must not have a fragment')
      // Every request adds the API's prefix itself: a base URL that ends in it would ask for
      // /api/public/v1/api/public/v1/…, where a 404 reads as "that job is gone". Refused, naming the one to use.
      .superRefine((value, ctx) => {
        if (!URL.canParse(value)) return;
        const url = new URL(value);
        const path = url.pathname.replace(/\/+$/, '');
        if (!path.endsWith(API_PREFIX)) return;
        ctx.addIssue({
          code: 'custom',
          message: `ends in the API's path prefix ${API_PREFIX}, which every request adds itself; use ${url.origin}${path.slice(0, -API_PREFIX.length)} instead`,
        });
      })
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
    offline: z.boolean(),
    timeoutMs: integerFrom(1, 600_000),
    maxRetryWaitS: integerFrom(0, 3_600),
    logLevel: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }),
    cache: z.boolean(),
    bridge: z.boolean(),
    maxInFlight: integerFrom(1, 100_000),
    redisUrl: z
      .string()
      .trim()
      .refine(
        (value) => URL.canParse(value) && ['redis:', 'rediss:'].includes(new URL(value).protocol),
        'must be a redis:// or rediss:// URL',
      )
      .optional(),
    // Names only here; which names exist is the registry's to say (tools/index.ts), when a command
    // starts, and with the bridge on a name may be a hosted tool's, known once the hosted list is read.
    tools: z
      .string()
      .transform((value) => [
        ...new Set(
          value
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean),
        ),
      ])
      .refine((names) => names.length > 0, 'must name at least one tool')
      .optional(),
    metricsPort: integerFrom(1, 65_535).optional(),
    metricsHost: z.string().trim().min(1, 'must name an interface'),
    logFormat: z.enum(LOG_FORMATS, { error: `must be one of ${LOG_FORMATS.join(', ')}` }),
    authTokensFile: z.string().trim().min(1, 'must name a file').optional(),
    authIssuer: publicUrl('an issuer').optional(),
    authAudience: publicUrl('a resource').optional(),
    authScopes: z
      .string()
      .transform((value) => [...new Set(value.split(/[\s,]+/).filter(Boolean))])
      .refine((scopes) => scopes.length > 0, 'must name at least one scope')
      .optional(),
    perClientRate: z
      .union([z.number().transform(String), z.string()])
      .transform((value) => value.trim().toLowerCase())
      .refine((value) => value === 'off' || /^\d+(:\d+)?$/.test(value), 'must be n (a minute), n:burst, or off')
      .transform((value) => {
        if (value === 'off') return 'off' as const;
        const [perMinute, burst = String(Math.max(1, Math.ceil(Number(value.split(':')[0]) / 2)))] = value.split(':');
        return { perMinute: Number(perMinute), burst: Number(burst) };
      })
      .refine(
        (rate) => rate === 'off' || (rate.perMinute >= 1 && rate.perMinute <= 1_000_000),
        'must allow from 1 to 1000000 requests a minute',
      )
      .refine(
        (rate) => rate === 'off' || (rate.burst >= 1 && rate.burst <= 1_000_000),
        'must have a burst from 1 to 1000000',
      )
      .optional(),
  })
  .transform((c) => ({
    ...c,
    // On with auth unless turned off; without auth only when asked for (every caller is then an address).
    perClientRate:
      c.perClientRate === 'off'
        ? undefined
        : (c.perClientRate ?? (c.authTokensFile || c.authIssuer ? { ...DEFAULT_PER_CLIENT_RATE } : undefined)),
    // No base URL at all means offline: the spec's {base_url} is deployment-specific.
    offline: c.offline || c.baseUrl === undefined,
    offlineReason: c.offline ? ('requested' as const) : c.baseUrl === undefined ? ('no_base_url' as const) : undefined,
  }));
