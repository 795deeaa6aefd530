/** The job postings: titles, places, salaries of each evidence class, requirements and evidence. */
import type { PublicJob } from '../../src/contract/schemas.js';
import type { SalaryPeriod, StoredJob } from '../../src/offline/dataset.js';
import {
  DAY,
  SNAPSHOT_AT,
  isoDate,
  isoSeconds,
  pad,
  round2,
  type Company,
  type Random,
  type Vocabulary,
} from './basics.ts';

const SENIORITY_PREFIX: Record<string, string> = {
  junior: 'Junior',
  mid: '',
  senior: 'Senior',
  staff: 'Staff',
  principal: 'Principal',
  lead: 'Lead',
};
const SENIORITY_PAY: Record<string, number> = {
  junior: 105_000,
  mid: 145_000,
  senior: 190_000,
  staff: 245_000,
  principal: 300_000,
  lead: 225_000,
  none: 160_000,
};
const COMPANY_PAY: Record<string, number> = {
  ai_lab: 1.25,
  infrastructure: 1.1,
  exchange: 1.1,
  enterprise: 1.0,
  scaleup: 1.0,
  protocol: 1.0,
  startup: 0.92,
  dao: 0.85,
};
const SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', SGD: 'S$', CAD: 'C$', INR: '₹' };
const CROSS_DOMAIN_ROLES: ReadonlyArray<number | string> = [101, 103, 106, 108, 203, 207, 209];
const REMOTE_REGIONS = ['Europe', 'US time zones', 'EMEA', 'Americas', 'APAC', 'worldwide'];

function formatAmount(amount: number, currency: string, period: SalaryPeriod): string {
  let text: string;
  if (period === 'hour') text = String(amount);
  else if (amount >= 1_000_000) text = `${Math.round(amount / 100_000) / 10}M`;
  else text = `${Math.round(amount / 1000)}k`;
  const symbol = SYMBOLS[currency];
  return symbol === undefined ? text : `${symbol}${text}`;
}

/** "$180k–$220k / year", "CHF 150k–190k / year", "From €90k / year", "Up to £120k / year". */
function formatSalaryDisplay(min: number | null, max: number | null, currency: string, period: SalaryPeriod): string {
  const code = SYMBOLS[currency] === undefined ? `${currency} ` : '';
  const suffix = ` / ${period}`;
  if (min !== null && max !== null)
    return `${code}${formatAmount(min, currency, period)}–${formatAmount(max, currency, period)}${suffix}`;
  if (min !== null) return `From ${code}${formatAmount(min, currency, period)}${suffix}`;
  return `Up to ${code}${formatAmount(max ?? 0, currency, period)}${suffix}`;
}

function roundTo(amount: number, period: SalaryPeriod, currency: string): number {
  const step = period === 'hour' ? 5 : period === 'month' ? 500 : currency === 'INR' ? 100_000 : 5000;
  return Math.max(step, Math.round(amount / step) * step);
}

export interface JobContext {
  vocab: Vocabulary;
  random: Random;
  companies: Company[];
  counters: Record<'ai' | 'web3', number>;
}

function pickCompany(ctx: JobContext, domain: 'ai' | 'web3', crossDomain: boolean): Company {
  const { random, companies } = ctx;
  const home = crossDomain ? (domain === 'ai' ? 'web3' : 'ai') : domain;
  const pool = companies.filter((c) => c.domain === home && (crossDomain ? !c.unresolved : true));
  const resolved = pool.filter((c) => !c.unresolved);
  const unresolved = pool.filter((c) => c.unresolved);
  if (unresolved.length > 0 && random.chance(0.05)) return random.pick(unresolved);
  // Earlier companies in each list hire more, as real markets are concentrated.
  const weights = resolved.map((c, i) => [c, resolved.length - i + 4] as const);
  return random.weighted(weights);
}

function buildSalary(
  ctx: JobContext,
  company: Company,
  country: string,
  remote: boolean,
  seniority: string | null,
  domain: 'ai' | 'web3',
  index: number,
) {
  const { random, vocab } = ctx;
  const source = random.weighted([
    ['disclosed', 35],
    ['extracted', 24],
    ['predicted', 20],
    ['none', 21],
  ] as const);
  if (source === 'none') return { salary: null, period: null };
  // An evidence class the client does not know, so renderers prove they show it as given.
  const evidenceClass = index === 17 || index === 203 ? 'benchmarked' : source;
  const period: SalaryPeriod = random.chance(0.03)
    ? 'hour'
    : domain === 'web3' && (remote || company.type === 'dao') && random.chance(0.12)
      ? 'month'
      : 'year';
  let currency = vocab.countries[country]!.currency;
  if (domain === 'web3' && remote)
    currency = random.weighted([
      ['USD', 70],
      ['USDC', 15],
      [currency, 15],
    ] as const);
  else if ((country === 'AE' || country === 'SG') && random.chance(0.3)) currency = 'USD';
  const payFactor = remote ? 0.9 : vocab.countries[country]!.payFactor;
  const baseUsd =
    SENIORITY_PAY[seniority ?? 'none']! *
    (COMPANY_PAY[company.type ?? 'startup'] ?? 1) *
    payFactor *
    (0.9 + random.next() * 0.2);
  const perPeriod = period === 'year' ? 1 : period === 'month' ? 12 : 2080;
  const fx = vocab.fxToUsd[currency]!;
  const lo = roundTo((baseUsd * 0.9) / fx / perPeriod, period, currency);
  const hi = Math.max(
    lo + (period === 'hour' ? 10 : period === 'month' ? 1000 : currency === 'INR' ? 500_000 : 20_000),
    roundTo((baseUsd * 1.15) / fx / perPeriod, period, currency),
  );
  const shape = random.weighted([
    ['range', 85],
    ['min', 8],
    ['max', 7],
  ] as const);
  const min = shape === 'max' ? null : lo;
  const max = shape === 'min' ? null : hi;
  return {
    salary: { min, max, currency, source: evidenceClass, display: formatSalaryDisplay(min, max, currency, period) },
    period,
  };
}

function buildExtras(
  random: Random,
  skills: string[],
  seniority: string | null,
  domain: 'ai' | 'web3',
  snapshotDay: string,
) {
  const extras: Partial<
    Pick<PublicJob, 'requirements' | 'operating_expectations' | 'proof_signals' | 'evidence_quality'>
  > = {};
  if (random.chance(0.4)) {
    const years: Record<string, number> = { junior: 0, mid: 2, senior: 5, staff: 8, principal: 10, lead: 6 };
    extras.requirements = {
      years_experience_min: years[seniority ?? 'mid'] ?? 3,
      must_have: skills.slice(0, 2),
      nice_to_have: skills.slice(2, 4),
      education: random.pick([
        'BS/MS in computer science or equivalent experience',
        'No degree requirement stated',
        'PhD or equivalent research record',
      ]),
      languages: random.chance(0.2) ? ['English', 'German'] : ['English'],
    };
  }
  if (random.chance(0.3)) {
    const pool = [
      { area: 'on_call', detail: 'Shared on-call rotation, one week in six' },
      { area: 'timezone', detail: 'At least four hours of overlap with CET' },
      { area: 'travel', detail: 'Quarterly team offsites, up to 10% travel' },
      { area: 'ownership', detail: 'Owns a production service end to end' },
      { area: 'mentoring', detail: 'Mentors two to three engineers' },
      { area: 'writing', detail: 'Design documents before large changes' },
    ];
    extras.operating_expectations = random.sample(pool, random.int(1, 3));
  }
  if (random.chance(0.3)) {
    const pool =
      domain === 'ai'
        ? [
            { kind: 'open_source', detail: 'Contributions to an ML framework or inference engine' },
            { kind: 'publication', detail: 'First-author paper at a major ML venue' },
            { kind: 'shipped_system', detail: 'Model served to production traffic' },
            { kind: 'benchmark', detail: 'Reproducible evaluation results' },
          ]
        : [
            { kind: 'audit_report', detail: 'Public audit findings or contest rankings' },
            { kind: 'open_source', detail: 'Merged pull requests to a client or framework' },
            { kind: 'deployed_contract', detail: 'Verified mainnet contracts holding user funds' },
            { kind: 'shipped_system', detail: 'Operated validators or indexers in production' },
          ];
    extras.proof_signals = random.sample(pool, random.int(1, 2));
  }
  if (random.chance(0.45)) {
    extras.evidence_quality = {
      score: round2(0.55 + random.next() * 0.44),
      sources: random.int(1, 4),
      last_verified: snapshotDay,
      notes: random.pick([
        'Title and location confirmed on the careers page',
        'Salary range quoted from the posting text',
        'Seen on two job boards with matching text',
        'Single source; not yet cross-checked',
      ]),
    };
  }
  return extras;
}

export function buildJob(ctx: JobContext, index: number): StoredJob {
  const { random, vocab } = ctx;
  const domain = random.chance(0.56) ? 'ai' : 'web3';
  const crossDomain = random.chance(0.07);
  const company = pickCompany(ctx, domain, crossDomain);
  // A company hiring outside its own vertical hires for roles both verticals share.
  const roles = crossDomain
    ? vocab.roles[domain].filter((r) => CROSS_DOMAIN_ROLES.includes(r.id))
    : vocab.roles[domain];
  const role = random.pick(roles);
  const seniority = random.weighted([
    ['junior', 8],
    ['mid', 22],
    ['senior', 33],
    ['staff', 12],
    ['principal', 6],
    ['lead', 9],
    [null, 10],
  ] as const);
  const prefix = seniority === null ? '' : SENIORITY_PREFIX[seniority]!;
  const title = prefix === '' ? role.title : `${prefix} ${role.title}`;

  const skills = random.sample(role.skills, random.int(3, Math.min(6, role.skills.length)));
  if (random.chance(0.15)) skills.push(random.pick(ctx.vocab.extraSkills.filter((s) => !skills.includes(s))));

  const country = company.country ?? random.pick(Object.keys(vocab.countries));
  const countryInfo = vocab.countries[country]!;
  const remoteStatus = random.weighted([
    ['remote', 30],
    ['hybrid', 33],
    ['onsite', 27],
    [null, 10],
  ] as const);
  const city = company.city !== null && random.chance(0.8) ? company.city : random.pick(countryInfo.cities);
  const place =
    city === countryInfo.name || country === 'US' || country === 'CA' ? city : `${city}, ${countryInfo.name}`;
  let locationText: string | null = place;
  let locationCountry: string | null = country;
  if (remoteStatus === 'remote') {
    locationText = random.pick(['Remote', `Remote (${random.pick(REMOTE_REGIONS)})`, `Remote, ${countryInfo.name}`]);
    if (random.chance(0.5)) locationCountry = null;
  } else if (remoteStatus === null && random.chance(0.5)) {
    locationText = null;
    if (random.chance(0.5)) locationCountry = null;
  }

  const { salary, period } = buildSalary(ctx, company, country, remoteStatus === 'remote', seniority, domain, index);

  const daysAgo = Math.floor(30 * random.next() * random.next());
  const seenAt = SNAPSHOT_AT - daysAgo * DAY - random.int(0, 23 * 60) * 60_000;
  const lastSeen = random.chance(0.02) ? null : random.chance(0.5) ? isoDate(seenAt) : isoSeconds(seenAt);
  const active = random.chance(0.93);

  ctx.counters[domain] += 1;
  const repost = index % 97 === 41 ? '-r2' : '';
  const jobId = `job_${domain}_${pad(ctx.counters[domain], 4)}${repost}`;
  const postingNumber = random.int(10_000, 999_999);
  const url = random.chance(0.1)
    ? null
    : random.chance(0.75)
      ? `https://careers.example.com/${company.slug}/jobs/${postingNumber}`
      : `https://jobs.example.org/postings/${company.slug}-${postingNumber}`;

  const job: PublicJob = {
    job_id: jobId,
    title,
    company: {
      id: company.id,
      name: company.name,
      type: company.type,
      type_confidence: company.typeConfidence,
      logo_url: company.logoUrl,
    },
    role: {
      id: random.chance(0.05) ? null : role.id,
      label: role.label,
      confidence: random.chance(0.04) ? null : round2(0.6 + random.next() * 0.39),
    },
    salary,
    freshness: active ? (lastSeen !== null && daysAgo <= 3 ? 'live' : 'active') : 'closed',
    last_seen: lastSeen,
    location_text: locationText,
    location_country: locationCountry,
    remote_status: remoteStatus,
    seniority_level: seniority,
    skills,
    url,
    domain_id: domain,
    domain_assignment: crossDomain ? 'classified' : random.chance(0.78) ? 'explicit' : 'classified',
    ...buildExtras(random, skills, seniority, domain, isoDate(SNAPSHOT_AT - DAY)),
  };
  return { active, salary_period: period, job };
}

/** Most recently seen first; a date counts as the start of its day; unknown last_seen goes last. */
export function byRecency(a: StoredJob, b: StoredJob): number {
  const key = (j: StoredJob) =>
    j.job.last_seen === null ? '' : j.job.last_seen.length === 10 ? `${j.job.last_seen}T00:00:00Z` : j.job.last_seen;
  const diff = key(b).localeCompare(key(a));
  return diff !== 0 ? diff : a.job.job_id.localeCompare(b.job.job_id);
}

export function annualUsd(stored: StoredJob, fx: Record<string, number>): number | null {
  const salary = stored.job.salary;
  if (!salary || stored.salary_period === null || salary.source !== 'disclosed') return null;
  const amount =
    salary.min !== null && salary.max !== null ? (salary.min + salary.max) / 2 : (salary.min ?? salary.max);
  const rate = fx[salary.currency];
  if (amount === null || rate === undefined) return null;
  return amount * rate * (stored.salary_period === 'year' ? 1 : stored.salary_period === 'month' ? 12 : 2080);
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
