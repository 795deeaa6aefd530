/** The fictional companies: ids, slugs, type confidence and logos, from the word lists. */
import { slugify, type Company, type Random, type Vocabulary } from './basics.ts';

export function buildCompanies(vocab: Vocabulary, random: Random): Company[] {
  let nextId = 1001;
  return vocab.companies.map((company, index) => {
    const slug = slugify(company.name);
    const resolved = !company.unresolved;
    const logoUrl = !resolved
      ? null
      : index % 3 === 0
        ? `/logos/${slug}.png`
        : index % 3 === 1
          ? `https://cdn.example.com/logos/${slug}.svg`
          : null;
    return {
      ...company,
      id: resolved ? nextId++ : null,
      slug,
      typeConfidence:
        company.type === null
          ? null
          : resolved
            ? random.weighted([
                ['high', 70],
                ['medium', 25],
                ['low', 5],
              ] as const)
            : 'low',
      logoUrl,
    };
  });
}
