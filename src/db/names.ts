// Wire names to column names, shared by every area that maps one to the other (projects, the dataset format).

/** A wire property name in snake_case: a capital after a lower-case letter or digit starts a new word
 *  (ProjectLifeTimeFrom -> project_life_time_from, VATOptionId -> vatoption_id). */
export const snake = (wire: string): string => wire.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
