/**
 * Bales' Interaction Process Analysis (IPA): THE table of categories, numbers 1–12 as Bales numbered them, plus 13 for a
 * message that fits none. Every other file (prompt, schema, panel, README) takes numbers and labels from here.
 *
 * Areas (Bales 1950): 1–3 social-emotional positive, 4–6 task answers, 7–9 task questions, 10–12 social-emotional negative.
 */

export type BalesArea = 'positive' | 'task-answer' | 'task-question' | 'negative' | 'none';

export interface BalesCategory {
  readonly number: number;
  readonly label: string;
  readonly area: BalesArea;
  /** One line for the coder: what a message of this category does. */
  readonly hint: string;
}

export const BALES_CATEGORIES: readonly BalesCategory[] = [
  { number: 1, label: 'Shows solidarity', area: 'positive', hint: 'raises the others’ status, gives help or praise, rewards' },
  { number: 2, label: 'Shows tension release', area: 'positive', hint: 'jokes, laughs, shows satisfaction or relief' },
  { number: 3, label: 'Agrees', area: 'positive', hint: 'shows passive acceptance, understands, concurs, complies' },
  {
    number: 4,
    label: 'Gives suggestion',
    area: 'task-answer',
    hint: 'gives direction, proposes an action or a combination, implying autonomy for the others',
  },
  { number: 5, label: 'Gives opinion', area: 'task-answer', hint: 'evaluates, analyses, expresses a feeling or a wish about the work' },
  { number: 6, label: 'Gives orientation', area: 'task-answer', hint: 'gives information, repeats, clarifies, confirms facts' },
  { number: 7, label: 'Asks for orientation', area: 'task-question', hint: 'asks for information, repetition or confirmation' },
  { number: 8, label: 'Asks for opinion', area: 'task-question', hint: 'asks for evaluation, analysis, expression of feeling' },
  { number: 9, label: 'Asks for suggestion', area: 'task-question', hint: 'asks for direction or possible ways of action' },
  { number: 10, label: 'Disagrees', area: 'negative', hint: 'shows passive rejection, formality, withholds help, contradicts' },
  { number: 11, label: 'Shows tension', area: 'negative', hint: 'asks for help, withdraws, shows nervousness' },
  { number: 12, label: 'Shows antagonism', area: 'negative', hint: 'deflates the others’ status, defends or asserts self aggressively' },
  { number: 13, label: 'None of these', area: 'none', hint: 'fits none of the twelve categories' },
];

/** 1 … 13, the enum of the coding schema. */
export const CATEGORY_NUMBERS: readonly number[] = BALES_CATEGORIES.map((c) => c.number);

export const AGREES = 3;
export const DISAGREES = 10;

export function isCategory(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= BALES_CATEGORIES.length;
}

export function categoryLabel(n: number): string {
  const c = BALES_CATEGORIES[n - 1];
  if (!c) throw new Error(`${n} is not a Bales category (1–${BALES_CATEGORIES.length}).`);
  return c.label;
}

export function categoryArea(n: number): BalesArea {
  return BALES_CATEGORIES[n - 1]?.area ?? 'none';
}
