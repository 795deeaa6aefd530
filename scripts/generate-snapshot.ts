/**
 * Generates the embedded offline snapshot, src/offline/snapshot.json, from a fixed seed and the
 * word lists in snapshot-vocabulary.json. Companies and people are fictional; URLs use reserved
 * example domains.
 *
 *   npm run snapshot            (writes the file)
 *   npm run snapshot -- --check (exits 1 when the committed file differs from a fresh generation)
 *
 * Runs under `node --experimental-strip-types`, so this file imports only types from src/ (type
 * imports are erased; value imports would need .ts extensions that the typechecker refuses).
 * Only + - * / and rounding are used on numbers, so the output is identical on every platform.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PublicJob } from '../src/api/schemas.js';
import type { Dataset, InterviewCompany, MarketMapDimension, Readiness, SalaryPeriod, StoredJob } from '../src/offline/dataset.js';

export const SEED = 20261119;
export const SNAPSHOT_PATH = fileURLToPath(new URL('../src/offline/snapshot.json', import.meta.url));
const SOURCE = 'offline-snapshot (embedded service-mcp dataset of fictional sample data, not live)';
const SNAPSHOT_AT = Date.UTC(2026, 10, 19, 6, 0, 0);
const DAY = 86_400_000;
const JOB_COUNT = 362;

interface Country {
  name: string;
  currency: string;
  payFactor: number;
  cities: string[];
}
interface CompanyVocab {
  name: string;
  type: string | null;
  domain: 'ai' | 'web3';
  country: string | null;
  city: string | null;
  focus?: string;
  product?: string;
  stage?: string;
  headcount?: string;
  topics?: string[];
  unresolved?: boolean;
}
interface RoleVocab {
  id: number | string;
  label: string;
  title: string;
  skills: string[];
}
interface DimensionVocab {
  id: string;
  label: string;
  layer: string;
  domain_id: 'ai' | 'web3';
  skills: string[];
}
interface Vocabulary {
  countries: Record<string, Country>;
  fxToUsd: Record<string, number>;
  companies: CompanyVocab[];
  roles: Record<'ai' | 'web3', RoleVocab[]>;
  marketMap: DimensionVocab[];
}

interface Company extends CompanyVocab {
  id: number | null;
  slug: string;
  typeConfidence: string | null;
  logoUrl: string | null;
}

/** mulberry32: tiny, fast and good enough to make varied but reproducible data. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;
  const weighted = <T>(entries: ReadonlyArray<readonly [T, number]>): T => {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let roll = next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1]![0];
  };
  /** `count` distinct items, kept in their original order. */
  const sample = <T>(items: readonly T[], count: number): T[] => {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(count, items.length)) chosen.add(Math.floor(next() * items.length));
    return [...chosen].sort((a, b) => a - b).map((i) => items[i]!);
  };
  return { next, int, pick, chance, weighted, sample };
}
type Random = ReturnType<typeof createRandom>;

export function loadVocabulary(): Vocabulary {
  return JSON.parse(readFileSync(new URL('./snapshot-vocabulary.json', import.meta.url), 'utf8')) as Vocabulary;
}

const slugify = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isoSeconds = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
const round2 = (n: number) => Math.round(n * 100) / 100;

function buildCompanies(vocab: Vocabulary, random: Random): Company[] {
  let nextId = 1001;
  return vocab.companies.map((company, index) => {
    const slug = slugify(company.name);
    const resolved = !company.unresolved;
    const logoUrl = !resolved ? null : index % 3 === 0 ? `/logos/${slug}.png` : index % 3 === 1 ? `https://cdn.example.com/logos/${slug}.svg` : null;
    return {
      ...company,
      id: resolved ? nextId++ : null,
      slug,
      typeConfidence: company.type === null ? null : resolved ? random.weighted([['high', 70], ['medium', 25], ['low', 5]] as const) : 'low',
      logoUrl,
    };
  });
}

const SENIORITY_PREFIX: Record<string, string> = { junior: 'Junior', mid: '', senior: 'Senior', staff: 'Staff', principal: 'Principal', lead: 'Lead' };
const SENIORITY_PAY: Record<string, number> = { junior: 105_000, mid: 145_000, senior: 190_000, staff: 245_000, principal: 300_000, lead: 225_000, none: 160_000 };
const COMPANY_PAY: Record<string, number> = { ai_lab: 1.25, infrastructure: 1.1, exchange: 1.1, enterprise: 1.0, scaleup: 1.0, protocol: 1.0, startup: 0.92, dao: 0.85 };
const SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', SGD: 'S$', CAD: 'C$', INR: '₹' };
const CROSS_DOMAIN_ROLES: ReadonlyArray<number | string> = [101, 103, 106, 108, 203, 207, 209];
const EXTRA_SKILLS = ['Docker', 'AWS', 'GCP', 'Linux', 'GraphQL', 'Git'];
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
export function formatSalaryDisplay(min: number | null, max: number | null, currency: string, period: SalaryPeriod): string {
  const code = SYMBOLS[currency] === undefined ? `${currency} ` : '';
  const suffix = ` / ${period}`;
  if (min !== null && max !== null) return `${code}${formatAmount(min, currency, period)}–${formatAmount(max, currency, period)}${suffix}`;
  if (min !== null) return `From ${code}${formatAmount(min, currency, period)}${suffix}`;
  return `Up to ${code}${formatAmount(max ?? 0, currency, period)}${suffix}`;
}

function roundTo(amount: number, period: SalaryPeriod, currency: string): number {
  const step = period === 'hour' ? 5 : period === 'month' ? 500 : currency === 'INR' ? 100_000 : 5000;
  return Math.max(step, Math.round(amount / step) * step);
}

interface JobContext {
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

function buildSalary(ctx: JobContext, company: Company, country: string, remote: boolean, seniority: string | null, domain: 'ai' | 'web3', index: number) {
  const { random, vocab } = ctx;
  const source = random.weighted([['disclosed', 35], ['extracted', 24], ['predicted', 20], ['none', 21]] as const);
  if (source === 'none') return { salary: null, period: null };
  // An evidence class the client does not know, so renderers prove they show it as given.
  const evidenceClass = index === 17 || index === 203 ? 'benchmarked' : source;
  const period: SalaryPeriod = random.chance(0.03) ? 'hour' : domain === 'web3' && (remote || company.type === 'dao') && random.chance(0.12) ? 'month' : 'year';
  let currency = vocab.countries[country]!.currency;
  if (domain === 'web3' && remote) currency = random.weighted([['USD', 70], ['USDC', 15], [currency, 15]] as const);
  else if ((country === 'AE' || country === 'SG') && random.chance(0.3)) currency = 'USD';
  const payFactor = remote ? 0.9 : vocab.countries[country]!.payFactor;
  const baseUsd = SENIORITY_PAY[seniority ?? 'none']! * (COMPANY_PAY[company.type ?? 'startup'] ?? 1) * payFactor * (0.9 + random.next() * 0.2);
  const perPeriod = period === 'year' ? 1 : period === 'month' ? 12 : 2080;
  const fx = vocab.fxToUsd[currency]!;
  const lo = roundTo((baseUsd * 0.9) / fx / perPeriod, period, currency);
  const hi = Math.max(lo + (period === 'hour' ? 10 : period === 'month' ? 1000 : currency === 'INR' ? 500_000 : 20_000), roundTo((baseUsd * 1.15) / fx / perPeriod, period, currency));
  const shape = random.weighted([['range', 85], ['min', 8], ['max', 7]] as const);
  const min = shape === 'max' ? null : lo;
  const max = shape === 'min' ? null : hi;
  return { salary: { min, max, currency, source: evidenceClass, display: formatSalaryDisplay(min, max, currency, period) }, period };
}

function buildExtras(random: Random, skills: string[], seniority: string | null, domain: 'ai' | 'web3', snapshotDay: string) {
  const extras: Partial<Pick<PublicJob, 'requirements' | 'operating_expectations' | 'proof_signals' | 'evidence_quality'>> = {};
  if (random.chance(0.4)) {
    const years: Record<string, number> = { junior: 0, mid: 2, senior: 5, staff: 8, principal: 10, lead: 6 };
    extras.requirements = {
      years_experience_min: years[seniority ?? 'mid'] ?? 3,
      must_have: skills.slice(0, 2),
      nice_to_have: skills.slice(2, 4),
      education: random.pick(['BS/MS in computer science or equivalent experience', 'No degree requirement stated', 'PhD or equivalent research record']),
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
      notes: random.pick(['Title and location confirmed on the careers page', 'Salary range quoted from the posting text', 'Seen on two job boards with matching text', 'Single source; not yet cross-checked']),
    };
  }
  return extras;
}

function buildJob(ctx: JobContext, index: number): StoredJob {
  const { random, vocab } = ctx;
  const domain = random.chance(0.56) ? 'ai' : 'web3';
  const crossDomain = random.chance(0.07);
  const company = pickCompany(ctx, domain, crossDomain);
  // A company hiring outside its own vertical hires for roles both verticals share.
  const roles = crossDomain ? vocab.roles[domain].filter((r) => CROSS_DOMAIN_ROLES.includes(r.id)) : vocab.roles[domain];
  const role = random.pick(roles);
  const seniority = random.weighted([['junior', 8], ['mid', 22], ['senior', 33], ['staff', 12], ['principal', 6], ['lead', 9], [null, 10]] as const);
  const prefix = seniority === null ? '' : SENIORITY_PREFIX[seniority]!;
  const title = prefix === '' ? role.title : `${prefix} ${role.title}`;

  const skills = random.sample(role.skills, random.int(3, Math.min(6, role.skills.length)));
  if (random.chance(0.15)) skills.push(random.pick(EXTRA_SKILLS.filter((s) => !skills.includes(s))));

  const country = company.country ?? random.pick(Object.keys(vocab.countries));
  const countryInfo = vocab.countries[country]!;
  const remoteStatus = random.weighted([['remote', 30], ['hybrid', 33], ['onsite', 27], [null, 10]] as const);
  const city = company.city !== null && random.chance(0.8) ? company.city : random.pick(countryInfo.cities);
  const place = city === countryInfo.name || country === 'US' || country === 'CA' ? city : `${city}, ${countryInfo.name}`;
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
  const url = random.chance(0.1) ? null : random.chance(0.75) ? `https://careers.example.com/${company.slug}/jobs/${postingNumber}` : `https://jobs.example.org/postings/${company.slug}-${postingNumber}`;

  const job: PublicJob = {
    job_id: jobId,
    title,
    company: { id: company.id, name: company.name, type: company.type, type_confidence: company.typeConfidence, logo_url: company.logoUrl },
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
function byRecency(a: StoredJob, b: StoredJob): number {
  const key = (j: StoredJob) => (j.job.last_seen === null ? '' : j.job.last_seen.length === 10 ? `${j.job.last_seen}T00:00:00Z` : j.job.last_seen);
  const diff = key(b).localeCompare(key(a));
  return diff !== 0 ? diff : a.job.job_id.localeCompare(b.job.job_id);
}

function annualUsd(stored: StoredJob, fx: Record<string, number>): number | null {
  const salary = stored.job.salary;
  if (!salary || stored.salary_period === null || salary.source !== 'disclosed') return null;
  const amount = salary.min !== null && salary.max !== null ? (salary.min + salary.max) / 2 : (salary.min ?? salary.max);
  const rate = fx[salary.currency];
  if (amount === null || rate === undefined) return null;
  return amount * rate * (stored.salary_period === 'year' ? 1 : stored.salary_period === 'month' ? 12 : 2080);
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function buildBrief(company: Company, jobs: StoredJob[], vocab: Vocabulary, random: Random): InterviewCompany {
  const own = jobs.filter((j) => j.active && j.job.company.id === company.id);
  const country = vocab.countries[company.country ?? 'US']!;
  const generatedAt = SNAPSHOT_AT - random.int(1, 9) * DAY - random.int(0, 600) * 60_000;
  const windowFrom = isoDate(generatedAt - 30 * DAY);
  const windowTo = isoDate(generatedAt);
  const roleCounts = new Map<string, number>();
  for (const j of own) roleCounts.set(j.job.role.label, (roleCounts.get(j.job.role.label) ?? 0) + 1);
  const topRoles = [...roleCounts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3).map(([label]) => label);
  const remoteShare = own.length === 0 ? 0 : Math.round((100 * own.filter((j) => j.job.remote_status === 'remote').length) / own.length);
  const bySource = (source: string) => own.filter((j) => j.job.salary?.source === source).length;
  const disclosed = bySource('disclosed');
  const topics = company.topics ?? [];
  const site = `https://${company.slug}.example.com`;
  const observed = (daysBack: number) => isoDate(generatedAt - daysBack * DAY);

  const technical = company.domain === 'ai' ? 'ML system design or research deep-dive' : 'protocol or smart-contract design review';
  const stages = [
    { stage: 'Recruiter screen', duration_minutes: 30, focus: 'Motivation, logistics and compensation expectations' },
    { stage: 'Technical screen', duration_minutes: 60, focus: `Coding in the team's main language with follow-ups on ${topics[0] ?? 'fundamentals'}` },
    { stage: company.type === 'dao' ? 'Paid trial task' : 'Take-home or pairing exercise', duration_minutes: company.type === 'dao' ? 480 : 120, focus: `A scoped problem close to ${company.focus}` },
    { stage: 'Onsite loop', duration_minutes: 240, focus: `${technical}; collaboration; ${topics[1] ?? 'past projects'}` },
  ];
  if (company.type === 'enterprise' || company.type === 'exchange') stages.push({ stage: 'Hiring manager and values interview', duration_minutes: 45, focus: 'Ownership, compliance mindset, working across teams' });

  const data = {
    company: {
      company_id: String(company.id),
      slug: company.slug,
      name: company.name,
      type: company.type,
      domain_id: company.domain,
      headquarters: company.city === country.name ? company.city : `${company.city}, ${country.name}`,
      stage: company.stage ?? null,
      headcount: company.headcount ?? null,
      website: site,
    },
    interview_package: {
      summary: `${company.name} builds ${company.product}, with a focus on ${company.focus}. In this snapshot it has ${own.length} open role${own.length === 1 ? '' : 's'}${topRoles.length > 0 ? `, mostly ${topRoles.join(', ')}` : ''}.`,
      hiring_signals: [
        { signal: `${own.length} active postings in the last 30 days`, strength: own.length >= 10 ? 'strong' : own.length >= 4 ? 'moderate' : 'weak', observed_at: windowTo },
        { signal: `${remoteShare}% of postings are fully remote`, strength: 'moderate', observed_at: windowTo },
        { signal: `${disclosed} posting${disclosed === 1 ? '' : 's'} disclose a salary range`, strength: disclosed >= 3 ? 'moderate' : 'weak', observed_at: windowTo },
      ],
      likely_interview_stages: stages,
      topics,
      role_focus: topRoles,
      questions_to_ask: [
        `How does the team decide what to prioritise in ${topics[0] ?? company.focus}?`,
        `What would a successful first six months look like for this role?`,
        `How is ${topics[2] ?? 'quality'} measured, and who owns it?`,
        company.domain === 'web3' ? 'How are protocol upgrades and incidents communicated to the community?' : 'How are model releases evaluated before they reach customers?',
      ],
      preparation_tips: [
        `Read ${company.name}'s recent engineering posts on ${topics[0] ?? company.focus}.`,
        `Prepare a project story that shows ${topics[3] ?? 'ownership'} in practice.`,
        'Expect questions on trade-offs, not only on correct answers.',
      ],
      compensation: {
        disclosed_ranges: disclosed,
        extracted_ranges: bySource('extracted'),
        predicted_ranges: bySource('predicted'),
        note: 'Counts by evidence class. Disclosed, extracted and predicted ranges are never merged.',
      },
    },
    evidence: [
      { claim: `${company.name} lists ${own.length} open roles`, source_type: 'careers_page', url: `${site}/careers`, observed_at: observed(1) },
      { claim: `${company.name} describes its interview process`, source_type: 'careers_page', url: `${site}/careers/how-we-hire`, observed_at: observed(random.int(3, 20)) },
      { claim: `Engineering work on ${topics[0] ?? company.focus}`, source_type: 'engineering_blog', url: `${site}/blog/${slugify(topics[0] ?? company.focus ?? 'engineering')}`, observed_at: observed(random.int(5, 40)) },
      ...(company.stage && /Series|Public/.test(company.stage) ? [{ claim: `${company.stage} financing`, source_type: 'funding_announcement', url: `https://news.example.net/${company.slug}-${slugify(company.stage)}`, observed_at: observed(random.int(30, 200)) }] : []),
    ],
    freshness: {
      generated_at: isoSeconds(generatedAt),
      observation_window: { from: windowFrom, to: windowTo },
      status: generatedAt > SNAPSHOT_AT - 5 * DAY ? 'fresh' : 'aging',
      evidence_count: 0,
    },
    suppressed: disclosed < 3 ? [{ field: 'compensation_summary', reason: 'fewer than 3 disclosed salary ranges' }] : [],
  };
  data.freshness.evidence_count = data.evidence.length;
  return {
    company_id: String(company.id),
    slug: company.slug,
    name: company.name,
    meta: { source: SOURCE, generated_at: isoSeconds(generatedAt), computed_at: isoSeconds(generatedAt + 95_000) },
    data,
  };
}

function buildMarketMap(vocab: Vocabulary, jobs: StoredJob[], random: Random): Dataset['market_map'] {
  const active = jobs.filter((j) => j.active);
  const errorDims = new Set(random.sample(vocab.marketMap.map((d) => d.id), 2));
  const dimensions: MarketMapDimension[] = vocab.marketMap.map((dim) => {
    const matching = active.filter((j) => j.job.domain_id === dim.domain_id && j.job.skills.some((s) => dim.skills.includes(s)));
    const companies = new Set(matching.map((j) => j.job.company.name));
    let readiness: Readiness = dim.skills.length === 0 || matching.length === 0 ? 'missing' : matching.length < 12 ? 'partial' : 'ready';
    if (readiness !== 'missing' && errorDims.has(dim.id)) readiness = 'error';
    const salaries = matching.map((j) => annualUsd(j, vocab.fxToUsd)).filter((v): v is number => v !== null);
    const suppressSalary = salaries.length < 3;
    const base = { id: dim.id, label: dim.label, layer: dim.layer, domain_id: dim.domain_id, readiness };
    if (readiness === 'missing') return { ...base, job_count: null, company_count: null, median_disclosed_salary_usd: null, note: 'No source in this snapshot covers this dimension yet.', suppressed: [] };
    if (readiness === 'error') return { ...base, job_count: null, company_count: null, median_disclosed_salary_usd: null, error: 'aggregation failed: the skill taxonomy refresh timed out', suppressed: [] };
    const skillCounts = new Map<string, number>();
    for (const j of matching) for (const s of j.job.skills) skillCounts.set(s, (skillCounts.get(s) ?? 0) + 1);
    const medianUsd = median(salaries);
    return {
      ...base,
      job_count: matching.length,
      company_count: companies.size,
      median_disclosed_salary_usd: suppressSalary || medianUsd === null ? null : Math.round(medianUsd / 1000) * 1000,
      top_skills: [...skillCounts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5).map(([s]) => s),
      trend_30d_pct: random.int(-15, 40),
      coverage: { sources: random.int(2, 6), observed_from: '2026-10-03', observed_to: '2026-11-01' },
      suppressed: suppressSalary ? [{ field: 'median_disclosed_salary_usd', reason: 'fewer than 3 disclosed salaries' }] : [],
    };
  });
  for (const state of ['ready', 'partial', 'missing', 'error'] as const) {
    if (!dimensions.some((d) => d.readiness === state)) throw new Error(`market map has no ${state} dimension; adjust the vocabulary`);
  }
  const layers = [...new Set(vocab.marketMap.map((d) => d.layer))];
  return {
    meta: { source: SOURCE, generated_at: '2026-11-02 06:00:00', computed_at: '2026-11-02T06:07:45Z' },
    layers,
    generation: {
      generated_at: '2026-11-02 06:00:00',
      timezone_stated: false,
      cadence: 'weekly',
      method: 'skill and role taxonomy over active job postings',
      job_window: { from: '2026-10-03', to: '2026-11-01' },
      dimension_count: dimensions.length,
    },
    dimensions,
  };
}

export function generateSnapshot(seed: number = SEED, vocab: Vocabulary = loadVocabulary()): Dataset {
  const random = createRandom(seed);
  const companies = buildCompanies(vocab, random);
  const ctx: JobContext = { vocab, random, companies, counters: { ai: 0, web3: 0 } };
  const jobs = Array.from({ length: JOB_COUNT }, (_, i) => buildJob(ctx, i)).sort(byRecency);
  // Some companies have no brief, so that the interview operation's 404 has real ids to miss.
  const briefed = companies.filter((c, i) => !c.unresolved && i % 7 !== 3);
  return {
    schema_version: 1,
    seed,
    snapshot: {
      source: SOURCE,
      generated_at: isoSeconds(SNAPSHOT_AT),
      computed_at: isoSeconds(SNAPSHOT_AT + 252_000),
      observation_window: { from: isoDate(SNAPSHOT_AT - 30 * DAY), to: isoDate(SNAPSHOT_AT) },
    },
    fx_to_usd: vocab.fxToUsd,
    jobs,
    companies: briefed.map((c) => buildBrief(c, jobs, vocab, random)),
    market_map: buildMarketMap(vocab, jobs, random),
  };
}

/** The exact bytes written to the snapshot file. */
export function serializeSnapshot(dataset: Dataset): string {
  return `${JSON.stringify(dataset)}\n`;
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const text = serializeSnapshot(generateSnapshot());
  if (process.argv.includes('--check')) {
    const current = readFileSync(SNAPSHOT_PATH, 'utf8');
    if (current !== text) {
      process.stderr.write('src/offline/snapshot.json is out of date: run npm run snapshot\n');
      process.exit(1);
    }
  } else {
    writeFileSync(SNAPSHOT_PATH, text);
  }
  process.stderr.write(`snapshot: ${Buffer.byteLength(text)} bytes\n`);
}
