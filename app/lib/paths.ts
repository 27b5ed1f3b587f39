/**
 * Paths built from slugs. A slug keeps the letters of its title (`الخطافات-بالتفصيل`), and a URL may carry only
 * ASCII: every segment is percent-encoded here, so a redirect's Location and a link's href are valid whatever the
 * language of the title. Remix decodes route params, so loaders still see the slug as it is stored.
 */
export const segment = (value: string) => encodeURIComponent(value);

/** `/course/{group}/lecture/{lecture}`, encoded. */
export const lecturePath = (groupSlug: string, lectureSlug: string) => `/course/${segment(groupSlug)}/lecture/${segment(lectureSlug)}`;

/** `/course/{group}/lecture/{lecture}/quiz/{quiz}`, encoded. */
export const quizPath = (groupSlug: string, lectureSlug: string, quizSlug: string) => `${lecturePath(groupSlug, lectureSlug)}/quiz/${segment(quizSlug)}`;
