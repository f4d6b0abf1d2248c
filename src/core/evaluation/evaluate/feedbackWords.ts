/** The study's wording of the rating and the three survey questions (pure: shared by the core and the webview). */
export const SURVEY_QUESTIONS = ['representative', 'clarity', 'satisfied'] as const;
export type SurveyQuestion = (typeof SURVEY_QUESTIONS)[number];

/** The three questions as the live study asked them (1 = strongly disagree, 5 = strongly agree). */
export const SURVEY_WORDING: Record<SurveyQuestion, string> = {
  representative: 'The final output reflects my key preferences and reasoning.',
  clarity: 'It was clear what the main agreements, disagreements and trade-offs were, and why.',
  satisfied: 'I am satisfied with the design decision our team reached.',
};

export const RATING_WORDING = 'This is what I would have said (1 = not at all, 5 = exactly).';
