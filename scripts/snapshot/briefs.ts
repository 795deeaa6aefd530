/** The interview briefs: one per company with a brief, from its postings and the word lists. */
import type { InterviewCompany, StoredJob } from '../../src/offline/dataset.js';
import {
  DAY,
  SNAPSHOT_AT,
  SOURCE,
  isoDate,
  isoSeconds,
  slugify,
  type Company,
  type Random,
  type Vocabulary,
} from './basics.ts';

export function buildBrief(company: Company, jobs: StoredJob[], vocab: Vocabulary, random: Random): InterviewCompany {
  const own = jobs.filter((j) => j.active && j.job.company.id === company.id);
  const country = vocab.countries[company.country ?? 'US']!;
  const generatedAt = SNAPSHOT_AT - random.int(1, 9) * DAY - random.int(0, 600) * 60_000;
  const windowFrom = isoDate(generatedAt - 30 * DAY);
  const windowTo = isoDate(generatedAt);
  const roleCounts = new Map<string, number>();
  for (const j of own) roleCounts.set(j.job.role.label, (roleCounts.get(j.job.role.label) ?? 0) + 1);
  const topRoles = [...roleCounts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 3)
    .map(([label]) => label);
  const remoteShare =
    own.length === 0 ? 0 : Math.round((100 * own.filter((j) => j.job.remote_status === 'remote').length) / own.length);
  const bySource = (source: string) => own.filter((j) => j.job.salary?.source === source).length;
  const disclosed = bySource('disclosed');
  const topics = company.topics ?? [];
  const site = `https://${company.slug}.example.com`;
  const observed = (daysBack: number) => isoDate(generatedAt - daysBack * DAY);

  const technical =
    company.domain === 'ai' ? 'ML system design or research deep-dive' : 'protocol or smart-contract design review';
  const stages = [
    { stage: 'Recruiter screen', duration_minutes: 30, focus: 'Motivation, logistics and compensation expectations' },
    {
      stage: 'Technical screen',
      duration_minutes: 60,
      focus: `Coding in the team's main language with follow-ups on ${topics[0] ?? 'fundamentals'}`,
    },
    {
      stage: company.type === 'dao' ? 'Paid trial task' : 'Take-home or pairing exercise',
      duration_minutes: company.type === 'dao' ? 480 : 120,
      focus: `A scoped problem close to ${company.focus}`,
    },
    {
      stage: 'Onsite loop',
      duration_minutes: 240,
      focus: `${technical}; collaboration; ${topics[1] ?? 'past projects'}`,
    },
  ];
  if (company.type === 'enterprise' || company.type === 'exchange')
    stages.push({
      stage: 'Hiring manager and values interview',
      duration_minutes: 45,
      focus: 'Ownership, compliance mindset, working across teams',
    });

  const data = {
    company: {
      company_id: company.id,
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
        {
          signal: `${own.length} active postings in the last 30 days`,
          strength: own.length >= 10 ? 'strong' : own.length >= 4 ? 'moderate' : 'weak',
          observed_at: windowTo,
        },
        { signal: `${remoteShare}% of postings are fully remote`, strength: 'moderate', observed_at: windowTo },
        {
          signal: `${disclosed} posting${disclosed === 1 ? '' : 's'} disclose a salary range`,
          strength: disclosed >= 3 ? 'moderate' : 'weak',
          observed_at: windowTo,
        },
      ],
      likely_interview_stages: stages,
      topics,
      role_focus: topRoles,
      questions_to_ask: [
        `How does the team decide what to prioritise in ${topics[0] ?? company.focus}?`,
        `What would a successful first six months look like for this role?`,
        `How is ${topics[2] ?? 'quality'} measured, and who owns it?`,
        company.domain === 'web3'
          ? 'How are protocol upgrades and incidents communicated to the community?'
          : 'How are model releases evaluated before they reach customers?',
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
      {
        claim: `${company.name} lists ${own.length} open roles`,
        source_type: 'careers_page',
        url: `${site}/careers`,
        observed_at: observed(1),
      },
      {
        claim: `${company.name} describes its interview process`,
        source_type: 'careers_page',
        url: `${site}/careers/how-we-hire`,
        observed_at: observed(random.int(3, 20)),
      },
      {
        claim: `Engineering work on ${topics[0] ?? company.focus}`,
        source_type: 'engineering_blog',
        url: `${site}/blog/${slugify(topics[0] ?? company.focus ?? 'engineering')}`,
        observed_at: observed(random.int(5, 40)),
      },
      ...(company.stage && /Series|Public/.test(company.stage)
        ? [
            {
              claim: `${company.stage} financing`,
              source_type: 'funding_announcement',
              url: `https://news.example.net/${company.slug}-${slugify(company.stage)}`,
              observed_at: observed(random.int(30, 200)),
            },
          ]
        : []),
    ],
    freshness: {
      generated_at: isoSeconds(generatedAt),
      observation_window: { from: windowFrom, to: windowTo },
      status: generatedAt > SNAPSHOT_AT - 5 * DAY ? 'fresh' : 'aging',
      evidence_count: 0,
    },
    suppressed:
      disclosed < 3 ? [{ field: 'compensation_summary', reason: 'fewer than 3 disclosed salary ranges' }] : [],
  };
  data.freshness.evidence_count = data.evidence.length;
  return {
    // Only companies with an id are briefed (generate-snapshot.ts leaves out the unresolved).
    company_id: company.id!,
    slug: company.slug,
    name: company.name,
    meta: { source: SOURCE, generated_at: isoSeconds(generatedAt), computed_at: isoSeconds(generatedAt + 95_000) },
    data,
  };
}
