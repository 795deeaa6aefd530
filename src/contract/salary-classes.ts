/** The API's salary evidence classes (`salary.source`), with the words every surface labels them in. */
export const SALARY_CLASSES = {
  disclosed: 'disclosed by the employer',
  extracted: 'extracted from the posting text',
  predicted: 'model estimate, not disclosed',
} as const;

export type KnownSalaryClass = keyof typeof SALARY_CLASSES;

export function isKnownSalaryClass(source: string): source is KnownSalaryClass {
  return Object.hasOwn(SALARY_CLASSES, source);
}
